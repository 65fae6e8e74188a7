import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { createWebhook, deliveriesSettled, receiver, verified } from "./support";

let restore = () => {};
afterEach(() => restore());

const SLOW = "http://127.0.0.1:9/slow";
const FAST = "http://127.0.0.1:9/fast";

const deliveries = async (key: string, id: string) =>
  (await json(await call(`/api/v1/webhooks/${id}/deliveries`, { token: key }))).data as { status?: number }[];

/** `promise`, or a rejection after `ms`: a test that would hang under the old delivery fails instead. */
const within = <T>(ms: number, promise: Promise<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
  ]);

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what}: never happened`);
}

// Issue 35: a receiver that hung for its 10 s held back the account's other webhooks (4.7–8.5 s late).
describe("each webhook is delivered on its own", () => {
  it("delivers to a healthy receiver, and records it, while another hangs; nothing is sent twice", async () => {
    const user = await maxUser("independent");
    const slow = await createWebhook(user.key, { url: SLOW, description: "hangs" });
    const fast = await createWebhook(user.key, { url: FAST, description: "healthy" });
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const r = receiver(async (request) => {
      if (request.url === SLOW) await hanging;
      return new Response("ok");
    });
    restore = () => {
      release();
      r.restore();
    };
    const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user.accountId));
    const sentTo = (url: string) => r.received.filter((request) => request.url === url);

    const first = await createTask(user.key, { title: "First" });
    // The alarm starts both attempts and returns: it does not wait for the one that hangs.
    await within(2000, runDurableObjectAlarm(stub), "the alarm");
    await until(async () => (await deliveries(user.key, fast.id)).length === 1, "the healthy delivery recorded");
    expect((await deliveries(user.key, fast.id)).map((d) => d.status)).toEqual([200]);
    expect(await deliveries(user.key, slow.id)).toEqual([]);

    // A second event, while the first attempt to the slow receiver is still out: the next alarm sends it
    // to both at once, and does not send the first one again.
    const second = await createTask(user.key, { title: "Second" });
    await within(2000, runDurableObjectAlarm(stub), "the next alarm");
    await until(async () => sentTo(FAST).length === 2, "the second event at the healthy receiver");
    expect(sentTo(FAST).map((request) => verified(fast.secret, request).data.id)).toEqual([first.id, second.id]);
    expect(sentTo(SLOW).map((request) => verified(slow.secret, request).data.id)).toEqual([first.id, second.id]);

    release();
    await deliveriesSettled(user.accountId);
    expect((await deliveries(user.key, slow.id)).map((d) => d.status)).toEqual([200, 200]);
    expect((await deliveries(user.key, fast.id)).map((d) => d.status)).toEqual([200, 200]);
    // Everything delivered: the outbox is empty and nothing was sent twice.
    await runDurableObjectAlarm(stub);
    await deliveriesSettled(user.accountId);
    expect([sentTo(SLOW).length, sentTo(FAST).length]).toEqual([2, 2]);
  });
});
