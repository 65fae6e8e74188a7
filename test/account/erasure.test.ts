import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountSql, call, json, signUp } from "../helpers";
import { seededAccount } from "./seed";

const erase = (token: string, password: unknown) => call("/account", { method: "DELETE", token, body: { password } });

/** Every D1 table the migrations created, read from sqlite_master so a table added later is not forgotten. */
async function everyTable(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Rows of any D1 table that mention the account's id or email in any column. */
async function rowsMentioning(needles: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await everyTable()) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${table}"`).all();
    const hits = results.filter((row) => needles.some((n) => JSON.stringify(row).includes(n))).length;
    if (hits) found[table] = hits;
  }
  return found;
}

/** Tasks D1's search index (tasks_fts, migration 0008) still finds for any word of the account. */
async function d1IndexedWords(accountId: string): Promise<number> {
  const code = accountId.replaceAll("-", "");
  const row = await env.DB.prepare("SELECT count(*) AS n FROM tasks_fts WHERE tasks_fts MATCH ?")
    .bind(`"${code}"*`)
    .first<{ n: number }>();
  return row!.n;
}

const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));

/**
 * Every row of every table in the account's object, read from its sqlite_master so a table added later
 * is not forgotten. Left out: SQLite's and workerd's own tables, drizzle's record of the migrations
 * run, and the search index's shadow tables (asked through the index itself, objectIndexed).
 */
async function objectRows(accountId: string): Promise<Record<string, unknown[]>> {
  const tables = await accountSql<{ name: string }>(
    accountId,
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
       AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'tasks_fts_%'`,
  );
  const rows: Record<string, unknown[]> = {};
  for (const { name } of tables) rows[name] = await accountSql(accountId, `SELECT * FROM "${name}"`);
  return rows;
}

/** Rows the object's search index holds (it keeps words, not text, in segments a plain read cannot see). */
const objectIndexed = async (accountId: string) =>
  (await accountSql<{ n: number }>(accountId, "SELECT count(*) AS n FROM tasks_fts"))[0]!.n;

const alarmOf = (accountId: string) =>
  runInDurableObject(objectOf(accountId), (_instance, state) => state.storage.getAlarm());

/** What erasure leaves in the object: the marker row alone (object.ts `erase`), every other table empty. */
async function expectOnlyTheMarker(accountId: string) {
  const { account, ...rest } = await objectRows(accountId);
  expect(account).toEqual([expect.objectContaining({ id: accountId, erased_at: expect.any(String) })]);
  for (const [table, rows] of Object.entries(rest)) expect(rows, table).toEqual([]);
  expect(await objectIndexed(accountId)).toBe(0);
  expect(await alarmOf(accountId)).toBeNull();
}

// Two seeded accounts (every table, signed Stripe events included) take a few seconds on a busy machine.
describe("DELETE /account", { timeout: 30_000 }, () => {
  it("erases every row of the account in D1 and in its object, and leaves another account whole", async () => {
    const gone = await seededAccount("erase-me");
    const kept = await seededAccount("keep-me");
    const before = await rowsMentioning([gone.accountId]);
    // The seed really touches every table that holds account rows, or the checks below prove little.
    for (const table of [
      "accounts",
      "memberships",
      "sessions",
      "api_keys",
      "oauth_connections",
      "billing_customers",
      "billing_subscriptions",
    ])
      expect(before[table], table).toBeGreaterThan(0);
    const objectBefore = await objectRows(gone.accountId);
    for (const table of ["account", "api_keys", "connections", "tasks", "lists", "idempotency_keys"])
      expect(objectBefore[table]?.length, table).toBeGreaterThan(0);
    expect(await objectIndexed(gone.accountId)).toBeGreaterThan(0);
    expect(await alarmOf(gone.accountId)).not.toBeNull();
    const keptBefore = await rowsMentioning([kept.accountId]);
    const keptObject = await objectRows(kept.accountId);

    const res = await erase(gone.session, gone.password);
    expect(res.status).toBe(204);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await rowsMentioning([gone.accountId, gone.email])).toEqual({});
    await expectOnlyTheMarker(gone.accountId);
    expect(await rowsMentioning([kept.accountId])).toEqual(keptBefore);
    expect(await objectRows(kept.accountId)).toEqual(keptObject);
    expect(await objectIndexed(kept.accountId)).toBeGreaterThan(0);
  }, 30_000);

  it("erases the task rows D1 still holds for an account that waits for the move from D1", async () => {
    const user = await signUp("erase-waiting");
    const id = user.accountId;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO lists (account_id, id, name, name_key) VALUES (?, 'home', 'Home', 'home')").bind(id),
      env.DB.prepare("INSERT INTO tasks (id, account_id, title, list_id) VALUES (?, ?, 'Words in D1', 'home')").bind(
        `${id}-t1`,
        id,
      ),
      env.DB.prepare(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, claim, task_id, response, expires_at)
         VALUES (?, 'retry-1', 'hash', 'claim', ?, '{}', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 hours'))`,
      ).bind(id, `${id}-t1`),
      env.DB.prepare("INSERT INTO waiting_moves (account_id) VALUES (?)").bind(id),
    ]);
    // As before the account objects: no object yet, its rows only in D1.
    await runInDurableObject(objectOf(id), (_instance, state) => state.storage.deleteAll());
    expect(await d1IndexedWords(id)).toBeGreaterThan(0);
    expect((await erase(user.session, user.password)).status).toBe(204);
    expect(await rowsMentioning([id, user.email])).toEqual({});
    expect(await d1IndexedWords(id)).toBe(0);
    await expectOnlyTheMarker(id);
  });

  it("refuses every key and session of the account on the next request, and signing in fails", async () => {
    const user = await seededAccount("erase-access");
    // Works before, refused from the very next request on.
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    expect((await erase(user.session, user.password)).status).toBe(204);
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(401);
    const mcp = await call("/mcp", {
      token: user.key,
      headers: { Accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    });
    expect(mcp.status).toBe(401);
    for (const token of [user.session, user.secondSession])
      expect((await call("/account", { token })).status).toBe(401);
    const login = await call("/auth/login", { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(401);
  });

  it("frees the email: it signs up again as a new, empty account", async () => {
    const user = await seededAccount("erase-again");
    expect((await erase(user.session, user.password)).status).toBe(204);
    const again = await call("/auth/signup", { body: { email: user.email, password: "another long password" } });
    expect(again.status).toBe(201);
    const fresh = await json(again);
    expect(fresh.account.id).not.toBe(user.accountId);
    expect(fresh.account.membership).toMatchObject({ plan: "free" });
    const keys = await json(await call("/account/api-keys", { token: fresh.token }));
    expect(keys.data).toEqual([]);
  });

  it("refuses a wrong password with 401 invalid_credentials and erases nothing", async () => {
    const account = await signUp("erase-wrong");
    const res = await erase(account.session, "not my password");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await json(res)).toMatchObject({ code: "invalid_credentials", errors: [{ path: "password" }] });
    expect((await call("/account", { token: account.session })).status).toBe(200);
  });

  it("needs the password in a JSON body (400) and a session first (401)", async () => {
    const account = await signUp("erase-body");
    const noBody = await call("/account", { method: "DELETE", token: account.session });
    expect(noBody.status).toBe(400);
    expect(noBody.headers.get("content-type")).toBe("application/problem+json");
    const empty = await call("/account", { method: "DELETE", token: account.session, body: {} });
    expect(empty.status).toBe(400);
    expect((await json(empty)).errors[0].path).toBe("password");
    expect((await call("/account", { method: "DELETE", body: "{" })).status).toBe(401);
    expect((await call("/account", { token: account.session })).status).toBe(200);
  });
});
