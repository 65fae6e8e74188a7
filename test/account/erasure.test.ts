import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, json, signUp } from "../helpers";
import { seededAccount } from "./seed";

const erase = (token: string, password: unknown) => call("/account", { method: "DELETE", token, body: { password } });

/** Every table the migrations created, read from sqlite_master so a table added later is not forgotten. */
async function everyTable(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Rows of any table that mention the account's id or email in any column. */
async function rowsMentioning(needles: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await everyTable()) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${table}"`).all();
    const hits = results.filter((row) => needles.some((n) => JSON.stringify(row).includes(n))).length;
    if (hits) found[table] = hits;
  }
  return found;
}

/** Tasks the search index (tasks_fts, migration 0008) still finds for any word of the account. */
async function indexedWords(accountId: string): Promise<number> {
  const code = accountId.replaceAll("-", "");
  const row = await env.DB.prepare("SELECT count(*) AS n FROM tasks_fts WHERE tasks_fts MATCH ?")
    .bind(`"${code}"*`)
    .first<{ n: number }>();
  return row!.n;
}

// Two seeded accounts (every table, signed Stripe events included) take a few seconds on a busy machine.
describe("DELETE /account", { timeout: 20_000 }, () => {
  it("erases every row of the account in every table, and leaves another account whole", async () => {
    const gone = await seededAccount("erase-me");
    const kept = await seededAccount("keep-me");
    const before = await rowsMentioning([gone.accountId]);
    // The seed really touches every table that holds account rows, or the check below proves little.
    for (const table of [
      "accounts",
      "memberships",
      "sessions",
      "api_keys",
      "tasks",
      "lists",
      "idempotency_keys",
      "oauth_connections",
      "billing_customers",
      "billing_subscriptions",
    ])
      expect(before[table], table).toBeGreaterThan(0);
    // The search index keeps words, not ids, in binary segments that the scan above cannot read:
    // ask it for any word of the account (every indexed word starts with the account's code).
    expect(await indexedWords(gone.accountId)).toBeGreaterThan(0);
    const keptBefore = await rowsMentioning([kept.accountId]);

    const res = await erase(gone.session, gone.password);
    expect(res.status).toBe(204);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await rowsMentioning([gone.accountId, gone.email])).toEqual({});
    expect(await rowsMentioning([kept.accountId])).toEqual(keptBefore);
    expect(await indexedWords(gone.accountId)).toBe(0);
    expect(await indexedWords(kept.accountId)).toBeGreaterThan(0);
  });

  it("refuses every key and session of the account on the next request, and signing in fails", async () => {
    const user = await seededAccount("erase-access");
    // A listing held by the isolate must not outlive the key either.
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
