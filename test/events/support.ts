import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { onTestFinished, vi } from "vitest";
import { call, json, maxUser } from "../helpers";

/**
 * A stand-in for the receiver, at the HTTP boundary: workerd tests cannot listen on a port, so the
 * account object's `fetch` is replaced for the test and each request is recorded as it was sent
 * (method, URL, headers, the body's exact bytes). The end-to-end test with a real receiver on
 * 127.0.0.1 is test/clients/webhooks-e2e.mjs (against `wrangler dev`).
 */
export interface Received {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  redirect: string | undefined;
}

export function receiver(answer: (request: Received) => Response | Promise<Response> = () => new Response("ok")) {
  const received: Received[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    const entry: Received = {
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
      redirect: (init as RequestInit | undefined)?.redirect,
    };
    received.push(entry);
    return answer(entry);
  });
  return { received, restore: () => spy.mockRestore() };
}

export const HOOK_URL = "http://127.0.0.1:9/hook";

export async function createWebhook(key: string, body: Record<string, unknown> = { url: HOOK_URL }) {
  const res = await call("/api/v1/webhooks", { token: key, body });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${await res.text()}`);
  return json<{ id: string; secret: string; events: string[] }>(res);
}

const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));

/** Waits until no delivery attempt of the object is out (the alarm does not wait for them: delivery.ts). */
export const deliveriesSettled = (accountId: string) =>
  runInDurableObject(objectOf(accountId), (instance) => instance.deliveriesSettled());

/**
 * Runs the account object's alarm now (deliveries, reminders, retention), as the runtime would, and
 * waits for the attempts it started to be recorded.
 */
export async function runAlarm(accountId: string) {
  const ran = await runDurableObjectAlarm(objectOf(accountId));
  await deliveriesSettled(accountId);
  return ran;
}

/** Runs the account object's alarm as if the clock read `now` (ms): a due time without sleeping until it. */
export const runAlarmAt = (accountId: string, now: number) =>
  runInDurableObject(objectOf(accountId), async (instance, state) => {
    await state.storage.deleteAlarm();
    await instance.alarm(undefined, now);
    await instance.deliveriesSettled();
  });

/** The event a receiver got, after verifying its signature with the `standardwebhooks` package. */
export function verified(secret: string, request: Received) {
  return new Webhook(secret).verify(request.body, request.headers) as { type: string; timestamp: string; data: any };
}

/**
 * Runs the account object's alarm as if the clock read `now`, with `patch` in the object's env for this one run (the
 * object reads `this.env`): mail's binding stand-in (test/support/mailbox.ts), VAPID keys (test/support/push-device.ts).
 */
export const alarmWith = (accountId: string, now: number, patch: Partial<Env> = {}) =>
  runInDurableObject(objectOf(accountId), async (instance, state) => {
    const held = instance as unknown as { env: Env };
    const real = held.env;
    held.env = { ...real, ...patch };
    try {
      await state.storage.deleteAlarm();
      await instance.alarm(undefined, now);
      await instance.deliveriesSettled();
    } finally {
      held.env = real;
    }
  });

/**
 * A Max account with a webhook (`body`: its settings) and a receiver that answers 200 until the test ends;
 * `events()` runs the alarm and returns what arrived since the last call, each verified with the webhook's secret.
 */
export async function hooked(label = "hook", body?: Record<string, unknown>) {
  const user = await maxUser(label);
  const hook = await createWebhook(user.key, body);
  const r = receiver();
  onTestFinished(() => r.restore());
  const events = async () => {
    r.received.length = 0;
    await runAlarm(user.accountId);
    return r.received.map((request) => verified(hook.secret, request));
  };
  return { user, hook, r, events };
}
