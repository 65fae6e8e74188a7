import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { accountSql, call, createKey, createTask, json, maxUser, signUp } from "../helpers";
import { createWebhook, receiver, runAlarm } from "./support";

let restore = () => {};
afterEach(() => restore());

const DAY_MS = 24 * 3_600_000;

/** Delivers one new event and returns the request the receiver got. */
async function deliverOne(user: { key: string; accountId: string }, received: { body: string }[]) {
  received.length = 0;
  await createTask(user.key, { title: "Rotated" });
  await runAlarm(user.accountId);
  expect(received).toHaveLength(1);
  return received[0] as { body: string; headers: Record<string, string> };
}

const verifies = (secret: string, request: { body: string; headers: Record<string, string> }) => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

// Issue 35 item 26: a leaked secret could not be replaced without breaking the receiver.
describe("POST /api/v1/webhooks/{id}/rotate-secret", () => {
  it("shows a new secret once; both sign for 24 h, then only the new one", async () => {
    const user = await maxUser("rotate");
    const hook = await createWebhook(user.key);
    const r = receiver();
    restore = r.restore;

    const res = await call(`/api/v1/webhooks/${hook.id}/rotate-secret`, { method: "POST", token: user.key });
    expect(res.status).toBe(200);
    const rotated = await json(res);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(hook.secret);
    const until = Date.parse(rotated.previousSecretExpiresAt);
    expect(Math.abs(until - (Date.now() + DAY_MS))).toBeLessThan(60_000);
    // The list shows the overlap, and never a secret.
    const listed = await json(await call("/api/v1/webhooks", { token: user.key }));
    expect(listed.data[0].previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt);
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    const during = await deliverOne(user, r.received);
    expect(during.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect([verifies(rotated.secret, during), verifies(hook.secret, during)]).toEqual([true, true]);
    expect(verifies("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", during)).toBe(false);

    // A day later (the stored end moved into the past): the old secret signs nothing any more.
    await accountSql(user.accountId, "UPDATE webhooks SET previous_secret_until = ?", Date.now() - 1);
    const after = await deliverOne(user, r.received);
    expect(after.headers["webhook-signature"]).toMatch(/^v1,\S+$/);
    expect([verifies(rotated.secret, after), verifies(hook.secret, after)]).toEqual([true, false]);
    const later = await json(await call("/api/v1/webhooks", { token: user.key }));
    expect(later.data[0].previousSecretExpiresAt).toBeUndefined();
  });

  it("keeps only the secret just replaced when rotated twice", async () => {
    const user = await maxUser("rotate-twice");
    const hook = await createWebhook(user.key);
    const r = receiver();
    restore = r.restore;
    const rotate = async () =>
      json(await call(`/api/v1/webhooks/${hook.id}/rotate-secret`, { method: "POST", token: user.key, body: {} }));
    const second = await rotate();
    const third = await rotate();
    const request = await deliverOne(user, r.received);
    expect([hook.secret, second.secret, third.secret].map((s) => verifies(s, request))).toEqual([false, true, true]);
  });

  it("answers 401 without a key, 403 without Max, 404 for another id; the page rotates with its session", async () => {
    const user = await maxUser("rotate-guards");
    const hook = await createWebhook(user.key);
    expect((await call(`/api/v1/webhooks/${hook.id}/rotate-secret`, { method: "POST" })).status).toBe(401);
    const free = await signUp("rotate-free");
    const { key } = await createKey(free.session);
    const refused = await call(`/api/v1/webhooks/${hook.id}/rotate-secret`, { method: "POST", token: key });
    expect([refused.status, (await json(refused)).code]).toEqual([403, "max_required"]);
    const missing = await call("/api/v1/webhooks/nope/rotate-secret", { method: "POST", token: user.key });
    expect([missing.status, (await json(missing)).code]).toEqual([404, "webhook_not_found"]);
    const page = await call(`/account/webhooks/${hook.id}/rotate-secret`, { method: "POST", token: user.session });
    expect(page.status).toBe(200);
    expect((await json(page)).secret).not.toBe(hook.secret);
  });
});
