import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src";
import { accountSql, BASE, call, createKey, json, maxUser, signUp } from "../helpers";
import { probedAccounts, probedD1 } from "../support/d1-probes";
import { callWith, faultyD1, uniqueIp, unreachableAccounts, withFaultyObjectSql } from "./support";

/** A key's lastUsedAt where task requests record it: its account's object (the account page reads it there). */
const lastUsedAt = async (accountId: string, keyId: string) =>
  (await accountSql<{ v: string | null }>(accountId, "SELECT last_used_at AS v FROM api_keys WHERE id = ?", keyId))[0]
    ?.v ?? null;

describe("API keys and accounts", () => {
  it("allows at most 10 active keys; the 11th is 409 key_limit_reached, and revoking one frees a slot", async () => {
    const account = await signUp("ten-keys");
    const keys = [];
    for (let i = 0; i < 10; i++) keys.push(await createKey(account.session, `k${i}`));
    const eleventh = await call("/account/api-keys", { token: account.session, body: { name: "k10" } });
    expect(eleventh.status).toBe(409);
    expect((await json(eleventh)).code).toBe("key_limit_reached");
    expect((await call(`/account/api-keys/${keys[0]!.id}`, { method: "DELETE", token: account.session })).status).toBe(
      204,
    );
    expect((await call("/account/api-keys", { token: account.session, body: { name: "k10" } })).status).toBe(201);
  });

  it("parallel creations cannot slip past the limit", async () => {
    const account = await signUp("parallel-keys");
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call("/account/api-keys", { token: account.session, body: { name: `p${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });

  it("an expired key gets 401; expiry in the past is refused at creation", async () => {
    const user = await maxUser("expiry");
    const soon = await call("/account/api-keys", {
      token: user.session,
      body: { name: "short", expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(soon.status).toBe(201);
    const { key, id, expiresAt } = await json(soon);
    expect(expiresAt).toMatch(/Z$/);
    expect((await call("/api/v1/tasks", { token: key })).status).toBe(200);
    // Let it lapse (the clock is the object's SQLite, so move the stored expiry where the key is judged).
    await accountSql(user.accountId, "UPDATE api_keys SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", id);
    const expired = await call("/api/v1/tasks", { token: key });
    expect(expired.status).toBe(401);
    expect((await json(expired)).code).toBe("unauthorized");
    const past = await call("/account/api-keys", {
      token: user.session,
      body: { name: "past", expiresAt: "2001-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
  });

  it("refreshes lastUsedAt at most once a minute per key, and the account page shows it", async () => {
    const user = await maxUser("last-used");
    await callWith({}, "/api/v1/tasks", { token: user.key });
    const first = await lastUsedAt(user.accountId, user.keyId);
    expect(first).toMatch(/Z$/);
    for (let i = 0; i < 5; i++) await callWith({}, "/api/v1/tasks", { token: user.key });
    expect(await lastUsedAt(user.accountId, user.keyId)).toBe(first);
    const listed = await json(await call("/account/api-keys", { token: user.session }));
    expect(listed.data.find((k: { id: string }) => k.id === user.keyId).lastUsedAt).toBe(first);
    await accountSql(
      user.accountId,
      "UPDATE api_keys SET last_used_at = '2000-01-01T00:00:00.000Z' WHERE id = ?",
      user.keyId,
    );
    await callWith({}, "/api/v1/tasks", { token: user.key });
    expect(await lastUsedAt(user.accountId, user.keyId)).not.toBe("2000-01-01T00:00:00.000Z");
  });

  it("records lastUsedAt inside the request's one call to the account's object: no D1 write, nothing left to wait for", async () => {
    const user = await maxUser("in-the-call");
    await accountSql(user.accountId, "UPDATE api_keys SET last_used_at = NULL WHERE id = ?", user.keyId);
    const d1 = probedD1(env.DB);
    const objects = probedAccounts(env.ACCOUNTS);
    const request = new Request(`${BASE}/api/v1/tasks`, { headers: { Authorization: `Bearer ${user.key}` } });
    // No waitOnExecutionContext: whatever the request left to ctx.waitUntil has not run yet.
    const response = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...env, DB: d1.db, ACCOUNTS: objects.namespace } as Env,
      createExecutionContext(),
    );
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(await lastUsedAt(user.accountId, user.keyId)).toMatch(/Z$/);
    expect(d1.counter.trips).toBe(0);
    expect(objects.calls).toEqual(["run"]);
  });

  it("never logs a password or a key: sign-up, sign-in, key creation, key use over REST and MCP, failures included", async () => {
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const spies = methods.map((m) => vi.spyOn(console, m).mockImplementation(() => undefined));
    try {
      const user = await maxUser("quiet");
      await call("/auth/login", { body: { email: user.email, password: user.password } });
      await call("/auth/login", { body: { email: user.email, password: `${user.password}-wrong` } });
      await call("/api/v1/tasks", { token: user.key, body: { title: "secret-free" } });
      await call("/api/v1/tasks", { token: user.key });
      await call("/api/v1/tasks", { token: `${user.key.slice(0, -2)}xx` });
      await call("/mcp", {
        token: user.key,
        headers: { Accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_tasks", arguments: {} } },
      });
      // Failures log something: the storage failing while the key and password are in flight.
      const down = faultyD1(env.DB, { injected: 0, failWhen: () => true });
      const unreachable = unreachableAccounts(env.ACCOUNTS, { message: "Network connection lost.", injected: 0 });
      await callWith({ ACCOUNTS: unreachable }, "/api/v1/tasks", { token: user.key });
      // The object's own log line, for an error it cannot classify.
      const broken = { injected: 0, writes: 0, failWhen: () => true, message: "SQLITE_MISMATCH" };
      await withFaultyObjectSql(user.accountId, broken, () => call("/api/v1/tasks", { token: user.key }));
      await callWith({ DB: down }, "/auth/login", { body: { email: user.email, password: user.password } });
      await callWith({ DB: down, RATE_LIMITS: "on" }, "/auth/signup", {
        ip: uniqueIp(),
        body: { email: "x@example.com", password: user.password },
      });
      const lines = spies.flatMap((spy) =>
        spy.mock.calls.map((args) =>
          args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "),
        ),
      );
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toContain(user.password);
        expect(line).not.toContain(user.key);
        expect(line).not.toContain(user.key.slice(10, 30));
        expect(line).not.toContain(user.session);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
