import { afterEach, describe, expect, it, vi } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { accountSql, call, createTask, grant, json, maxUser, signUp } from "../helpers";
import { seedKey } from "../support/seed";
import { AccountExport } from "../../src/http/account-export";
import { openPush, pushDevice, type PushDevice, vapidPair, verifyVapid } from "../support/push-device";
import { alarmWith } from "./support";

/**
 * Reminders as browser notifications (issue 37 item 4). The push service is stood in for at its HTTP boundary:
 * `fetch` is replaced for the test and each POST recorded with its exact bytes, which the test decrypts with the
 * device's private key and whose VAPID token it verifies (test/support/push-device.ts). The pool's env has no VAPID
 * keys (push off); a request gets them through `callWith`, the object's alarm through `alarmWith`.
 */

interface Pushed {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The push service: records each POST and answers with `status` (one per call, the last repeated; 0: no answer). */
function pushService(...statuses: number[]) {
  const pushed: Pushed[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    pushed.push({
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: new Uint8Array(await request.arrayBuffer()),
    });
    const status = statuses[Math.min(pushed.length, statuses.length) - 1] ?? 201;
    if (status === 0) throw new TypeError("Network connection lost.");
    return new Response(null, { status });
  });
  return { pushed, restore: () => spy.mockRestore() };
}

let service: ReturnType<typeof pushService> | undefined;
afterEach(() => service?.restore());

async function pushUser() {
  const user = await maxUser("push");
  const vapid = await vapidPair();
  const subscribe = (
    device: PushDevice | { subscription: unknown },
    ua = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
  ) =>
    callWith(vapid as Partial<Env>, "/account/push-subscriptions", {
      token: user.session,
      body: device.subscription,
      headers: { "User-Agent": ua },
      ip: uniqueIp(),
    });
  const devices = async () =>
    (await json(await call("/account/push-subscriptions", { token: user.session }))).data as {
      id: string;
      endpoint: string;
    }[];
  return { user, vapid, subscribe, devices };
}

const inSeconds = (s: number) => Date.now() + s * 1000;

describe("the VAPID public key", () => {
  it("is null without the keys, or with one malformed (not an error: every tasks page asks), and the key with them", async () => {
    const off = await call("/api/v1/push/public-key");
    expect(off.status).toBe(200);
    expect(await json(off)).toEqual({ publicKey: null });
    const vapid = await vapidPair();
    for (const broken of [
      { ...vapid, VAPID_PRIVATE_KEY: "" },
      { ...vapid, VAPID_SUBJECT: "ops@example.com" }, // neither mailto: nor https:
      { ...vapid, VAPID_PUBLIC_KEY: vapid.VAPID_PUBLIC_KEY.slice(1) },
      { ...vapid, VAPID_PRIVATE_KEY: `${vapid.VAPID_PRIVATE_KEY}AA` },
    ]) {
      expect(await json(await callWith(broken as Partial<Env>, "/api/v1/push/public-key"))).toEqual({
        publicKey: null,
      });
    }
    const on = await callWith(vapid as Partial<Env>, "/api/v1/push/public-key");
    expect(on.status).toBe(200);
    expect(await json(on)).toEqual({ publicKey: vapid.VAPID_PUBLIC_KEY });
  });
});

describe("a device's subscription", () => {
  it("is stored once per endpoint, listed with its device, and removed", async () => {
    const { user, subscribe, devices } = await pushUser();
    const device = await pushDevice();
    const first = await subscribe(device);
    expect(first.status).toBe(201);
    const stored = await json(first);
    expect(stored).toMatchObject({ endpoint: device.subscription.endpoint, device: "Chrome on Linux" });
    const again = await subscribe(
      await pushDevice(device.subscription.endpoint),
      "Mozilla/5.0 (Android) Firefox/133.0",
    );
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ id: stored.id, device: "Firefox on Android" });
    expect(await devices()).toEqual([{ ...stored, device: "Firefox on Android" }]);
    const removed = await call(`/account/push-subscriptions/${stored.id}`, { method: "DELETE", token: user.session });
    expect(removed.status).toBe(204);
    expect(await devices()).toEqual([]);
    const gone = await call(`/account/push-subscriptions/${stored.id}`, { method: "DELETE", token: user.session });
    expect(gone.status).toBe(404);
    expect((await json(gone)).code).toBe("push_subscription_not_found");
  });

  it("is the same at /api/v1 with an API key, and judged 401, then 403, then 400, then 501 at both doors", async () => {
    const { user, vapid, subscribe, devices } = await pushUser();
    const device = await pushDevice();
    const byKey = await callWith(vapid as Partial<Env>, "/api/v1/push-subscriptions", {
      token: user.key,
      body: device.subscription,
    });
    expect(byKey.status).toBe(201);
    const stored = await json(byKey);
    expect(await devices()).toEqual([stored]); // the page sees what the key stored
    expect((await subscribe(device)).status).toBe(200);
    expect((await json(await call("/api/v1/push-subscriptions", { token: user.key }))).data).toEqual([
      { ...stored, device: "Chrome on Linux" },
    ]);
    const free = await signUp("push-free");
    const freeKey = (await seedKey(free.accountId)).key;
    const bad = { endpoint: "http://push.example.net/x" };
    for (const [path, valid, token] of [
      ["/api/v1/push-subscriptions", user.key, freeKey],
      ["/account/push-subscriptions", user.session, free.session],
    ] as const) {
      expect((await call(path, { body: bad })).status, `${path} without a credential`).toBe(401);
      expect((await call(path, { token: `${valid}x`, body: bad })).status, `${path} forged`).toBe(401);
      expect((await call(path, { token, body: bad })).status, `${path} without Max`).toBe(403);
      expect((await call(path, { token, body: device.subscription })).status, `${path} without Max`).toBe(403);
      expect((await call(path, { token: valid, body: bad })).status, `${path} bad body`).toBe(400);
      // The pool's env has no VAPID keys: a device cannot be pushed to, so it is not stored.
      const off = await call(path, { token: valid, body: (await pushDevice()).subscription });
      expect(off.status, `${path} push off`).toBe(501);
      expect((await json(off)).code).toBe("push_off");
    }
    expect(await devices()).toEqual([{ ...stored, device: "Chrome on Linux" }]);
    // Each door takes its own credential only.
    expect((await call("/account/push-subscriptions", { token: user.key })).status).toBe(401);
    expect((await call("/api/v1/push-subscriptions", { token: user.session })).status).toBe(401);
    const removed = await call(`/api/v1/push-subscriptions/${stored.id}`, { method: "DELETE", token: user.key });
    expect(removed.status).toBe(204);
    expect(await devices()).toEqual([]);
  });

  it("refuses what is not a subscription, naming the field, and stores nothing", async () => {
    const { subscribe, devices } = await pushUser();
    const { subscription } = await pushDevice();
    const notOnCurve = `B${"A".repeat(86)}`; // 65 bytes starting 0x04, not a point of P-256
    const cases: [unknown, string][] = [
      [{ ...subscription, endpoint: "http://push.example.net/x" }, "endpoint"],
      [{ ...subscription, endpoint: "https://10.0.0.7/x" }, "endpoint"],
      [{ ...subscription, endpoint: "https://127.0.0.1:8443/x" }, "endpoint"],
      [{ ...subscription, endpoint: "https://user:pw@push.example.net/x" }, "endpoint"],
      [{ ...subscription, endpoint: "push.example.net/x" }, "endpoint"],
      [{ ...subscription, keys: { ...subscription.keys, p256dh: subscription.keys.p256dh.slice(4) } }, "keys.p256dh"],
      [{ ...subscription, keys: { ...subscription.keys, p256dh: notOnCurve } }, "keys.p256dh"],
      [{ ...subscription, keys: { ...subscription.keys, auth: subscription.keys.auth.slice(2) } }, "keys.auth"],
      [{ ...subscription, keys: { ...subscription.keys, auth: "not base64url!!!!!!!!!" } }, "keys.auth"],
      [{ ...subscription, keys: { ...subscription.keys, extra: "x" } }, "keys"],
      [{ endpoint: subscription.endpoint }, "keys"],
    ];
    for (const [body, path] of cases) {
      const res = await subscribe({ subscription: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const problem = await json(res);
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect(await devices()).toEqual([]);
  });

  it("keeps 20 devices: a 21st replaces the oldest", async () => {
    const { subscribe, devices } = await pushUser();
    const made: string[] = [];
    for (let i = 0; i < 21; i++) made.push((await json(await subscribe(await pushDevice()))).id);
    const kept = (await devices()).map((d) => d.id);
    expect(kept).toHaveLength(20);
    expect(kept).not.toContain(made[0]);
    expect(kept).toEqual(made.slice(1));
  });
});

describe("pushing a reminder", () => {
  it("sends each device one encrypted push, signed with VAPID, once across alarm retries", async () => {
    const { user, vapid, subscribe } = await pushUser();
    const phone = await pushDevice();
    const laptop = await pushDevice("https://updates.push.services.mozilla.com/wpush/v2/abc");
    expect((await subscribe(phone)).status).toBe(201);
    expect((await subscribe(laptop)).status).toBe(201);
    const at = inSeconds(60);
    const task = await createTask(user.key, { title: "Call the dentist", reminder: new Date(at).toISOString() });
    service = pushService(201);
    await alarmWith(user.accountId, at, vapid as Partial<Env>);
    await alarmWith(user.accountId, at + 1000, vapid as Partial<Env>); // a retried or later alarm sends nothing again
    expect(service.pushed.map((p) => p.url).sort()).toEqual(
      [phone.subscription.endpoint, laptop.subscription.endpoint].sort(),
    );
    for (const push of service.pushed) {
      const device = push.url === phone.subscription.endpoint ? phone : laptop;
      expect(push.headers).toMatchObject({
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
        ttl: "86400",
        urgency: "high",
      });
      const message = JSON.parse(await openPush(device, push.body));
      expect(message).toEqual({
        type: "task.reminder",
        task: { id: task.id, title: "Call the dentist", due: null, reminder: task.reminder },
        url: "/tasks",
      });
      const token = await verifyVapid(push.headers.authorization!, push.url);
      expect(token.valid).toBe(true);
      expect(token.k).toBe(vapid.VAPID_PUBLIC_KEY);
      expect(token.header).toEqual({ typ: "JWT", alg: "ES256" });
      expect(token.claims.aud).toBe(token.audience);
      expect(token.claims.sub).toBe(vapid.VAPID_SUBJECT);
      expect(token.claims.exp * 1000).toBeGreaterThan(Date.now());
      expect(token.claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      // A device with another key cannot read it.
      await expect(openPush(await pushDevice(), push.body)).rejects.toThrow();
    }
    expect(await accountSql(user.accountId, "SELECT * FROM push_outbox")).toEqual([]);
  });

  it("forgets a device whose push service answers 404 or 410", async () => {
    for (const status of [404, 410]) {
      const { user, vapid, subscribe, devices } = await pushUser();
      const gone = await pushDevice();
      await subscribe(gone);
      const at = inSeconds(60);
      await createTask(user.key, { title: "Gone", reminder: new Date(at).toISOString() });
      service = pushService(status);
      await alarmWith(user.accountId, at, vapid as Partial<Env>);
      service.restore();
      expect(service.pushed).toHaveLength(1);
      expect(await devices()).toEqual([]);
      expect(await accountSql(user.accountId, "SELECT * FROM push_outbox")).toEqual([]);
    }
  });

  it("retries a 5xx, 429 or no answer after 1 min, 10 min and 1 h, then gives up; a 400 at once", async () => {
    const { user, vapid, subscribe, devices } = await pushUser();
    await subscribe(await pushDevice());
    const at = inSeconds(60);
    await createTask(user.key, { title: "Flaky", reminder: new Date(at).toISOString() });
    service = pushService(503, 429, 0, 500);
    const env = vapid as Partial<Env>;
    await alarmWith(user.accountId, at, env);
    const dueAfter = async () =>
      (await accountSql<{ due_at: number }>(user.accountId, "SELECT due_at FROM push_outbox"))[0]?.due_at;
    expect(await dueAfter()).toBe(at + 60_000);
    await alarmWith(user.accountId, at + 59_000, env); // not yet due
    expect(service.pushed).toHaveLength(1);
    await alarmWith(user.accountId, at + 60_000, env);
    expect(await dueAfter()).toBe(at + 60_000 + 600_000);
    await alarmWith(user.accountId, at + 660_000, env);
    expect(await dueAfter()).toBe(at + 660_000 + 3_600_000);
    await alarmWith(user.accountId, at + 4_260_000, env);
    expect(service.pushed).toHaveLength(4);
    expect(await dueAfter()).toBeUndefined(); // given up; the device stays
    expect(await devices()).toHaveLength(1);

    const refused = await pushUser();
    await refused.subscribe(await pushDevice());
    const when = inSeconds(60);
    await createTask(refused.user.key, { title: "Refused", reminder: new Date(when).toISOString() });
    service.restore();
    service = pushService(400);
    await alarmWith(refused.user.accountId, when, refused.vapid as Partial<Env>);
    expect(service.pushed).toHaveLength(1);
    expect(await accountSql(refused.user.accountId, "SELECT * FROM push_outbox")).toEqual([]);
    expect(await refused.devices()).toHaveLength(1);
  });

  it("pushes nothing while Max has lapsed or push is off, and queues nothing to send later", async () => {
    const lapsed = await pushUser();
    await lapsed.subscribe(await pushDevice());
    const at = inSeconds(60);
    await createTask(lapsed.user.key, { title: "Lapsed", reminder: new Date(at).toISOString() });
    await grant(lapsed.user.email, "free");
    service = pushService(201);
    await alarmWith(lapsed.user.accountId, at, lapsed.vapid as Partial<Env>);
    expect(service.pushed).toEqual([]);

    const off = await pushUser();
    await off.subscribe(await pushDevice());
    await createTask(off.user.key, { title: "Off", reminder: new Date(at).toISOString() });
    await alarmWith(off.user.accountId, at); // no VAPID keys in the object's env
    expect(service.pushed).toEqual([]);
    expect(await accountSql(off.user.accountId, "SELECT * FROM push_outbox")).toEqual([]);
    expect(await accountSql(off.user.accountId, "SELECT * FROM reminders")).toEqual([]);
  });
});

describe("the export and erasure", () => {
  it("lists the devices in the export without their keys, and erasure forgets them", async () => {
    const { user, subscribe } = await pushUser();
    const device = await pushDevice();
    const stored = await json(await subscribe(device));
    const text = await (await call("/account/export", { token: user.session })).text();
    const doc = AccountExport.parse(JSON.parse(text));
    expect(doc.pushSubscriptions).toEqual([stored]);
    expect(text).not.toContain(device.subscription.keys.p256dh);
    expect(text).not.toContain(device.subscription.keys.auth);
    const erased = await call("/account", {
      method: "DELETE",
      token: user.session,
      body: { password: user.password },
    });
    expect(erased.status).toBe(204);
    expect(await accountSql(user.accountId, "SELECT * FROM push_subscriptions")).toEqual([]);
  });
});
