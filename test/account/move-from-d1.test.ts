import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { base62Fixed, crc32, randomBase62, sha256Hex } from "../../src/domain/crypto";
import { accountSql, call, json, signUp } from "../helpers";

/**
 * The move from D1 (src/control/move-from-d1.ts): a database written by the single-database release (its
 * tables, as its migrations left them, and its rows, as its code wrote them: a key without an account in
 * it, tasks, tombstones, lists, an idempotency record stored as SQL JSON) keeps everything when this
 * release serves it. Migration 0013 marked every account of that database as waiting; a waiting account's
 * rows move into its object on its first request, or by the daily job, with no manual step.
 */

/** A key as the previous release issued it: `todo_live_` + 32 random + checksum, no account id. */
function singleDatabaseKey(): string {
  const body = `todo_live_${randomBase62(32)}`;
  return body + base62Fixed(crc32(body), 6);
}

async function singleDatabaseAccount() {
  const account = await signUp("single-database");
  // Sign-up opened the object; the previous release had none, so make it forget (erase, then no marker).
  const key = singleDatabaseKey();
  const keyHash = await sha256Hex(key);
  const id = account.accountId;
  const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
  const statements = [
    env.DB.prepare("UPDATE memberships SET plan = 'max', expires_at = NULL WHERE account_id = ?").bind(id),
    env.DB.prepare("UPDATE accounts SET time_zone = 'Europe/Berlin' WHERE id = ?").bind(id),
    env.DB.prepare(
      "INSERT INTO api_keys (id, account_id, name, key_hash, hint, created_at) VALUES (?, ?, 'old', ?, 'todo_live_x…', ?)",
    ).bind(`key-${id}`, id, keyHash, at(0)),
    env.DB.prepare(
      "INSERT INTO lists (account_id, id, name, name_key, created_at, updated_at) VALUES (?, 'groceries', 'Groceries', 'groceries', ?, ?)",
    ).bind(id, at(1), at(1)),
    env.DB.prepare(
      "INSERT INTO lists (account_id, id, name, name_key, created_at, updated_at, deleted_at) VALUES (?, 'old', 'Old', 'old', ?, ?, ?)",
    ).bind(id, at(2), at(3), at(3)),
    env.DB.prepare(
      `INSERT INTO tasks (id, account_id, title, notes, list_id, important, completed, completed_at, due, repeat, reminder, created_at, updated_at)
       VALUES (?, ?, 'Buy café beans', 'Arabica', 'groceries', 1, 0, NULL, '2026-12-01', 'FREQ=WEEKLY', '2026-12-01T08:00:00+01:00', ?, ?)`,
    ).bind(`${id}-t1`, id, at(4), at(5)),
    env.DB.prepare(
      `INSERT INTO tasks (id, account_id, title, completed, completed_at, created_at, updated_at)
       VALUES (?, ?, 'Done already', 1, ?, ?, ?)`,
    ).bind(`${id}-t2`, id, at(6), at(6), at(6)),
    env.DB.prepare(
      `INSERT INTO tasks (id, account_id, title, created_at, updated_at, deleted_at) VALUES (?, ?, 'Gone', ?, ?, ?)`,
    ).bind(`${id}-t3`, id, at(7), at(8), at(8)),
    env.DB.prepare(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, claim, task_id, response, expires_at)
       SELECT ?, 'retry-1', ?, 'claim', ?, json_object('id', id, 'title', title, 'completed', completed, 'updatedAt', updated_at,
         'important', important, 'listId', list_id, 'due', due, 'reminder', reminder, 'repeat', repeat, 'notes', notes,
         'completedAt', completed_at, 'createdAt', created_at, 'deletedAt', deleted_at, 'nextId', next_id),
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 hours') FROM tasks WHERE id = ?`,
    ).bind(id, await sha256Hex(JSON.stringify({ title: "Done already" })), `${id}-t2`, `${id}-t2`),
    // As migration 0013 marked every account that existed when it ran.
    env.DB.prepare("INSERT INTO waiting_moves (account_id) VALUES (?)").bind(id),
  ];
  await env.DB.batch(statements);
  // The previous release had no object: erase this one's rows so its first request finds none.
  const { runInDurableObject } = await import("cloudflare:test");
  await runInDurableObject(env.ACCOUNTS.get(env.ACCOUNTS.idFromName(id)), async (_instance, state) => {
    for (const table of ["account", "api_keys", "connections", "tasks", "lists", "idempotency_keys"])
      state.storage.sql.exec(`DELETE FROM ${table}`);
  });
  // As the previous release's triggers left it: adding the task moved its list's updated_at.
  const list = await env.DB.prepare(
    "SELECT updated_at AS updatedAt FROM lists WHERE account_id = ? AND id = 'groceries'",
  )
    .bind(id)
    .first<{ updatedAt: string }>();
  return { ...account, key, listUpdatedAt: list!.updatedAt };
}

const d1Count = async (table: string, accountId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
    .bind(accountId)
    .first<{ n: number }>())!.n;

describe("an account written by the single-database release", () => {
  it("keeps every task, list, tombstone and replay, moved into its object on its first request", async () => {
    const user = await singleDatabaseAccount();
    const res = await call("/api/v1/tasks", { token: user.key });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.map((t: { title: string }) => t.title)).toEqual(["Buy café beans", "Done already"]);
    expect(data[0]).toMatchObject({
      listId: "groceries",
      important: true,
      completed: false,
      due: "2026-12-01",
      repeat: "FREQ=WEEKLY",
      reminder: "2026-12-01T08:00:00+01:00",
      notes: "Arabica",
      updatedAt: "2026-11-01T09:00:05.000Z",
      // What the objects' migration 0006 gives old rows (issue 34): urgent when important, no parent;
      // and, as the objects' migration 0005, no labels.
      priority: 4,
      position: "a0",
      labels: [],
    });
    expect(data[0].parentId).toBeUndefined();
    expect(data[1]).toMatchObject({ completed: true, completedAt: "2026-11-01T09:00:06.000Z", priority: 1 });

    // Tombstones still reach a `since` sync, and lists keep their names, counts and updatedAt.
    const since = await json(await call("/api/v1/tasks?since=2026-11-01T09:00:00.000Z", { token: user.key }));
    expect(since.meta.deleted).toEqual([{ id: `${user.accountId}-t3`, deletedAt: "2026-11-01T09:00:08.000Z" }]);
    const lists = await json(await call("/api/v1/lists?since=2026-11-01T09:00:00.000Z", { token: user.key }));
    expect(lists.data).toEqual([
      {
        id: "groceries",
        name: "Groceries",
        openCount: 1,
        taskCount: 1,
        createdAt: "2026-11-01T09:00:01.000Z",
        updatedAt: user.listUpdatedAt,
      },
    ]);
    expect(lists.meta.deleted).toEqual([{ id: "old", deletedAt: "2026-11-01T09:00:03.000Z" }]);

    // Search finds the moved words; the replay answers with the original task; the time zone came along.
    const found = await json(await call("/api/v1/tasks?q=cafe", { token: user.key }));
    expect(found.data.map((t: { id: string }) => t.id)).toEqual([`${user.accountId}-t1`]);
    const replay = await call("/api/v1/tasks", {
      token: user.key,
      body: { title: "Done already" },
      headers: { "Idempotency-Key": "retry-1" },
    });
    const replayed = await json(replay);
    expect([replay.status, replay.headers.get("idempotent-replayed"), replayed.completed, replayed.labels]).toEqual([
      201,
      "true",
      true,
      [],
    ]);
    const [row] = await accountSql<{ time_zone: string }>(user.accountId, "SELECT time_zone FROM account");
    expect(row?.time_zone).toBe("Europe/Berlin");

    // D1 holds none of the account's tasks, lists or records any more; the key is still listed there.
    for (const table of ["tasks", "lists", "idempotency_keys"]) expect(await d1Count(table, user.accountId)).toBe(0);
    expect(await d1Count("api_keys", user.accountId)).toBe(1);
  });

  it("answers requests that arrive during the move correctly, and moves nothing twice", async () => {
    const user = await singleDatabaseAccount();
    const answers = await Promise.all(Array.from({ length: 6 }, () => call("/api/v1/tasks", { token: user.key })));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect((await json(res)).data).toHaveLength(2);
    }
    const [count] = await accountSql<{ n: number }>(user.accountId, "SELECT count(*) AS n FROM tasks");
    expect(count?.n).toBe(3);
  });

  it("moves an account that makes no request through the daily job, which logs how many still wait", async () => {
    const user = await singleDatabaseAccount();
    const log = vi.spyOn(console, "log");
    const { createScheduledController, createExecutionContext, waitOnExecutionContext } = await import(
      "cloudflare:test"
    );
    const worker = (await import("../../src")).default;
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await d1Count("tasks", user.accountId)).toBe(0);
    expect(await d1Count("waiting_moves", user.accountId)).toBe(0);
    const [count] = await accountSql<{ n: number }>(user.accountId, "SELECT count(*) AS n FROM tasks");
    expect(count?.n).toBe(3);
    const daily = log.mock.calls.find(([message]) => message === "daily job")?.[1];
    log.mockRestore();
    const waiting = (await env.DB.prepare("SELECT count(*) AS n FROM waiting_moves").first<{ n: number }>())!.n;
    expect(daily).toMatchObject({ moved: expect.any(Number), waiting });
    expect(daily.moved).toBeGreaterThanOrEqual(1);
  });
});
