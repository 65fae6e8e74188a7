import { afterEach, describe, expect, it } from "vitest";
import { accountSql, call, createTask, grant, json, maxUser, signUp, createKey } from "../helpers";
import { createWebhook, HOOK_URL, receiver, runAlarm, verified } from "./support";

let restore = () => {};
afterEach(() => restore());

const failing = async (status: number, headers: Record<string, string> = {}) => {
  const user = await maxUser("retry");
  const hook = await createWebhook(user.key);
  let answer = status;
  const r = receiver(() => new Response(null, { status: answer, headers }));
  restore = r.restore;
  return { user, hook, r, answerWith: (s: number) => (answer = s) };
};

/** Makes every pending attempt due now, as if its backoff had passed. */
const backoffPassed = (accountId: string) => accountSql(accountId, "UPDATE webhook_outbox SET due_at = 0");

const deliveries = async (key: string, id: string) =>
  (await json(await call(`/api/v1/webhooks/${id}/deliveries`, { token: key }))).data;

describe("webhook routes", () => {
  it("creates, lists without the secret, changes and deletes a webhook", async () => {
    const user = await maxUser("crud");
    const res = await call("/api/v1/webhooks", { token: user.key, body: { url: HOOK_URL, description: "Mine" } });
    expect(res.status).toBe(201);
    const hook = await json(res);
    expect(res.headers.get("location")).toBe(`http://example.com/api/v1/webhooks/${hook.id}`);
    expect(hook.events).toHaveLength(11);
    const listed = await json(await call("/api/v1/webhooks", { token: user.key }));
    expect(listed.data).toEqual([{ ...hook, secret: undefined }].map(({ secret: _, ...rest }) => rest));
    const patched = await call(`/api/v1/webhooks/${hook.id}`, {
      method: "PATCH",
      token: user.key,
      body: { enabled: false, events: ["task.created"], description: "" },
    });
    expect(await json(patched)).toMatchObject({ enabled: false, events: ["task.created"] });
    expect((await json(await call("/api/v1/webhooks", { token: user.key }))).data[0].description).toBeUndefined();
    expect((await call(`/api/v1/webhooks/${hook.id}`, { method: "DELETE", token: user.key })).status).toBe(204);
    const again = await call(`/api/v1/webhooks/${hook.id}`, { method: "DELETE", token: user.key });
    expect([again.status, (await json(again)).code]).toEqual([404, "webhook_not_found"]);
  });

  it.each([
    ["http://example.com/hook", "must use https"],
    ["https://localhost/hook", "localhost"],
    ["https://10.0.0.7/hook", "a private address"],
    ["https://2130706433/hook", "a loopback address"],
    ["https://[::ffff:169.254.169.254]/", "a link-local address"],
    ["https://100.64.1.1/", "carrier-grade NAT"],
    ["https://0.0.0.0/", "an unspecified address"],
    ["not a url", "absolute URL"],
  ])("refuses %s with a 400 that says why", async (url, why) => {
    const user = await maxUser("refused");
    const res = await call("/api/v1/webhooks", { token: user.key, body: { url } });
    const problem = await json(res);
    expect([res.status, problem.code, problem.errors[0].path]).toEqual([400, "validation_failed", "url"]);
    expect(problem.detail).toContain(why);
  });

  // Issue 35: the refusal was wrapped in a second sentence ("The webhook URL The URL must use https..").
  it("says why in one sentence, as the rule words it", async () => {
    const user = await maxUser("wording");
    const res = await call("/api/v1/webhooks", { token: user.key, body: { url: "http://example.com/hook" } });
    const problem = await json(res);
    expect(problem.detail).toBe("The URL must use https.");
    expect(problem.errors).toEqual([{ path: "url", message: "The URL must use https." }]);
    const auth = await call("/api/v1/webhooks", { token: user.key, body: { url: "http://me:pw@127.0.0.1:9/hook" } });
    expect([auth.status, (await json(auth)).detail]).toEqual([
      400,
      "The URL must not contain a user name or password.",
    ]);
  });

  it("answers 401 without a key, 403 without Max, and 409 past 10 webhooks", async () => {
    expect((await call("/api/v1/webhooks")).status).toBe(401);
    const free = await signUp("free");
    const { key } = await createKey(free.session);
    const refused = await call("/api/v1/webhooks", { token: key, body: { url: "nope" } });
    expect([refused.status, (await json(refused)).code]).toEqual([403, "max_required"]);
    const user = await maxUser("many");
    for (let i = 0; i < 10; i++) await createWebhook(user.key);
    const eleventh = await call("/api/v1/webhooks", { token: user.key, body: { url: HOOK_URL } });
    expect([eleventh.status, (await json(eleventh)).code]).toEqual([409, "webhook_limit_reached"]);
    await grant(user.email, "free");
  });

  it("retries after a 500 with the same webhook-id, visible in the deliveries", async () => {
    const { user, hook, r, answerWith } = await failing(500);
    const task = await createTask(user.key, { title: "Retried" });
    await runAlarm(user.accountId);
    const [row] = await accountSql<{ due_at: number }>(user.accountId, "SELECT due_at FROM webhook_outbox");
    const due_at = row!.due_at;
    // The first retry waits about 10 s.
    expect(due_at - Date.now()).toBeGreaterThan(8_000);
    expect(due_at - Date.now()).toBeLessThanOrEqual(10_000);
    answerWith(204);
    await backoffPassed(user.accountId);
    await runAlarm(user.accountId);
    expect(r.received).toHaveLength(2);
    const [first, second] = r.received.map((request) => verified(hook.secret, request));
    expect(second).toEqual(first);
    expect(first!.data.id).toBe(task.id);
    expect(r.received[1]!.headers["webhook-id"]).toBe(r.received[0]!.headers["webhook-id"]);
    const log = await deliveries(user.key, hook.id);
    expect(log.map((d: any) => [d.eventId, d.attempt, d.status])).toEqual([
      [r.received[0]!.headers["webhook-id"], 2, 204],
      [r.received[0]!.headers["webhook-id"], 1, 500],
    ]);
    expect(await accountSql(user.accountId, "SELECT * FROM webhook_outbox")).toEqual([]);
  });

  it("counts a redirect as a failure, gives up after 6 attempts and disables after 20 failed events", async () => {
    const { user, hook, r } = await failing(302, { location: "https://example.net/" });
    await accountSql(user.accountId, "UPDATE webhooks SET failed_events = 19");
    await createTask(user.key, { title: "Never delivered" });
    for (let attempt = 0; attempt < 6; attempt++) {
      await runAlarm(user.accountId);
      await backoffPassed(user.accountId);
    }
    expect(r.received).toHaveLength(6);
    expect((await deliveries(user.key, hook.id)).map((d: any) => d.status)).toEqual([302, 302, 302, 302, 302, 302]);
    const [listed] = (await json(await call("/api/v1/webhooks", { token: user.key }))).data;
    expect(listed.enabled).toBe(false);
    expect(listed.disabledReason).toContain("20 events in a row");
    await createTask(user.key, { title: "Not sent: disabled" });
    await runAlarm(user.accountId);
    expect(r.received).toHaveLength(6);
  });

  it("sends webhook.test on request, to that webhook alone", async () => {
    const user = await maxUser("test-event");
    const hook = await createWebhook(user.key, { url: HOOK_URL, events: ["list.deleted"] });
    const r = receiver();
    restore = r.restore;
    const res = await call(`/api/v1/webhooks/${hook.id}/test`, { method: "POST", token: user.key, body: {} });
    expect(res.status).toBe(202);
    const { eventId } = await json(res);
    await runAlarm(user.accountId);
    expect(r.received.map((request) => verified(hook.secret, request).type)).toEqual(["webhook.test"]);
    expect(r.received[0]!.headers["webhook-id"]).toBe(eventId);
  });

  it("sends webhook.test to the webhook tested even when it is disabled, and to no other webhook", async () => {
    const user = await maxUser("test-event-disabled");
    const tested = await createWebhook(user.key, { url: `${HOOK_URL}/tested` });
    await createWebhook(user.key, { url: `${HOOK_URL}/other` });
    const off = await call(`/api/v1/webhooks/${tested.id}`, {
      method: "PATCH",
      token: user.key,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    const r = receiver();
    restore = r.restore;
    const res = await call(`/api/v1/webhooks/${tested.id}/test`, { method: "POST", token: user.key, body: {} });
    expect(res.status).toBe(202);
    await runAlarm(user.accountId);
    expect(r.received.map((request) => [request.url, verified(tested.secret, request).type])).toEqual([
      [`${HOOK_URL}/tested`, "webhook.test"],
    ]);
  });

  it("shows the account page its webhooks with recent failures, and lets it disable and delete one", async () => {
    const { user, hook } = await failing(503);
    await createTask(user.key, { title: "Fails" });
    await runAlarm(user.accountId);
    const page = await json(await call("/account/webhooks", { token: user.session }));
    expect(page.data[0].recentFailures.map((d: any) => d.status)).toEqual([503]);
    const off = await call(`/account/webhooks/${hook.id}`, {
      method: "PATCH",
      token: user.session,
      body: { enabled: false },
    });
    expect((await json(off)).enabled).toBe(false);
    expect(await accountSql(user.accountId, "SELECT * FROM webhook_outbox")).toEqual([]);
    expect((await call(`/account/webhooks/${hook.id}`, { method: "DELETE", token: user.session })).status).toBe(204);
  });
});
