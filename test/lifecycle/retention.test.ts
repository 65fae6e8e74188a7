import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src";
import { accountSql, call, createTask, json } from "../helpers";
import { zonedUser } from "./support";

const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
/** Whether a query in the account's object finds a row. */
const exists = async (accountId: string, sql: string, ...params: string[]) =>
  (await accountSql(accountId, sql, ...params)).length > 0;

/** The account's alarm (its object's retention, reminders, deliveries), run now. */
async function runAlarm(accountId: string) {
  expect(await runDurableObjectAlarm(env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId)))).toBe(true);
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "17 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("retention", () => {
  it("the account's alarm purges tombstones older than 90 days and expired idempotency records; the cron dead sessions", async () => {
    const user = await zonedUser();
    const [old, recent, live] = [await createTask(user.key), await createTask(user.key), await createTask(user.key)];
    for (const t of [old, recent]) await call(`/api/v1/tasks/${t.id}`, { method: "DELETE", token: user.key });
    await accountSql(user.accountId, "UPDATE tasks SET deleted_at = ? WHERE id = ?", iso(91 * DAY), old.id);
    await accountSql(user.accountId, "UPDATE tasks SET deleted_at = ? WHERE id = ?", iso(89 * DAY), recent.id);

    await call("/api/v1/tasks", {
      token: user.key,
      body: { title: "keyed" },
      headers: { "Idempotency-Key": "expired" },
    });
    await call("/api/v1/tasks", { token: user.key, body: { title: "keyed" }, headers: { "Idempotency-Key": "fresh" } });
    await accountSql(user.accountId, "UPDATE idempotency_keys SET expires_at = ? WHERE key = 'expired'", iso(1000));

    const login = async () =>
      (await json(await call("/auth/login", { body: { email: user.email, password: user.password } }))).token as string;
    const [expiredSession, revokedSession] = [await login(), await login()];
    await env.DB.prepare(
      "UPDATE sessions SET expires_at = ? WHERE id = (SELECT id FROM sessions WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 1)",
    )
      .bind(iso(1000), user.accountId)
      .run();
    await call("/auth/logout", { method: "POST", token: revokedSession });
    expect(expiredSession).toBeTruthy();
    const sessionsBefore = (await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE account_id = ?")
      .bind(user.accountId)
      .first<{ n: number }>())!.n;
    expect(sessionsBefore).toBe(3);

    await runAlarm(user.accountId);
    await runCron();

    const { accountId } = user;
    expect(await exists(accountId, "SELECT 1 FROM tasks WHERE id = ?", old.id)).toBe(false);
    expect(await exists(accountId, "SELECT 1 FROM tasks WHERE id = ? AND deleted_at IS NOT NULL", recent.id)).toBe(
      true,
    );
    expect(await exists(accountId, "SELECT 1 FROM tasks WHERE id = ? AND deleted_at IS NULL", live.id)).toBe(true);
    expect(await exists(accountId, "SELECT 1 FROM idempotency_keys WHERE key = 'expired'")).toBe(false);
    expect(await exists(accountId, "SELECT 1 FROM idempotency_keys WHERE key = 'fresh'")).toBe(true);
    const sessions = await env.DB.prepare("SELECT expires_at, revoked_at FROM sessions WHERE account_id = ?")
      .bind(user.accountId)
      .all();
    expect(sessions.results).toHaveLength(1);
    // The sign-up session still works.
    expect((await call("/account", { token: user.session })).status).toBe(200);
  });

  it("purges list tombstones older than 90 days and keeps newer ones and live lists", async () => {
    const user = await zonedUser();
    const make = async (name: string) =>
      (await json(await call("/api/v1/lists", { token: user.key, body: { name } }))).id as string;
    const [old, recent, live] = [await make("old"), await make("recent"), await make("live")];
    for (const id of [old, recent]) await call(`/api/v1/lists/${id}`, { method: "DELETE", token: user.key });
    const backdate = (id: string, ms: number) =>
      accountSql(user.accountId, "UPDATE lists SET deleted_at = ? WHERE id = ?", iso(ms), id);
    await backdate(old, 91 * DAY);
    await backdate(recent, 89 * DAY);
    await runAlarm(user.accountId);
    const left = await accountSql<{ id: string }>(user.accountId, "SELECT id FROM lists ORDER BY name");
    expect(left.map((r) => r.id).sort()).toEqual([live, recent].sort());
  });

  it("a since older than 90 days is 410 sync_expired; 89 days is fine", async () => {
    const user = await zonedUser();
    const expired = await call(`/api/v1/tasks?since=${encodeURIComponent(iso(90 * DAY + 60_000))}`, {
      token: user.key,
    });
    expect(expired.status).toBe(410);
    const problem = await json(expired);
    expect(problem.code).toBe("sync_expired");
    expect(problem.detail).toMatch(/list again/);
    expect((await call(`/api/v1/tasks?since=${encodeURIComponent(iso(89 * DAY))}`, { token: user.key })).status).toBe(
      200,
    );
  });

  it("sets the account's alarm only when there is work: none while idle, then each purge's time, none once purged", async () => {
    const user = await zonedUser();
    const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user.accountId));
    const { runInDurableObject } = await import("cloudflare:test");
    const alarmAt = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    const { accountId } = user;

    // An account that reads and writes tasks without a reminder, a webhook, a deletion or a replay record.
    const kept = await createTask(user.key, { title: "kept" });
    await call(`/api/v1/tasks/${kept.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    expect(await alarmAt()).toBeNull();

    // A tombstone: purged 90 days after its deletion (a second later: the purge takes what is older).
    const gone = await createTask(user.key, { title: "gone" });
    await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
    const [tombstone] = await accountSql<{ at: string }>(
      accountId,
      "SELECT deleted_at AS at FROM tasks WHERE id = ?",
      gone.id,
    );
    expect(await alarmAt()).toBe(Date.parse(tombstone!.at) + 90 * DAY + 1000);

    // A replay record expires sooner (24 hours): the alarm moves to it.
    await call("/api/v1/tasks", { token: user.key, body: { title: "keyed" }, headers: { "Idempotency-Key": "k-1" } });
    const [record] = await accountSql<{ at: string }>(accountId, "SELECT expires_at AS at FROM idempotency_keys");
    expect(await alarmAt()).toBe(Date.parse(record!.at) + 1000);

    // Both past due: the alarm purges them and, with nothing left to do, sets none.
    await accountSql(accountId, "UPDATE tasks SET deleted_at = ? WHERE id = ?", iso(91 * DAY), gone.id);
    await accountSql(accountId, "UPDATE idempotency_keys SET expires_at = ?", iso(1000));
    await runAlarm(accountId);
    expect(await exists(accountId, "SELECT 1 FROM tasks WHERE deleted_at IS NOT NULL")).toBe(false);
    expect(await exists(accountId, "SELECT 1 FROM idempotency_keys")).toBe(false);
    expect(await alarmAt()).toBeNull();
  });

  it("declares the cron trigger the handler serves", async () => {
    // wrangler.toml is the source of truth; the test pins that the handler exists on the Worker.
    expect(typeof worker.scheduled).toBe("function");
  });
});
