import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { BASE, call, createKey, json, maxUser, signUp } from "../helpers";
import { callWith, faultyD1, uniqueIp } from "./support";

const lastUsedAt = async (keyId: string) =>
  (
    await env.DB.prepare("SELECT last_used_at AS v FROM api_keys WHERE id = ?")
      .bind(keyId)
      .first<{ v: string | null }>()
  )?.v ?? null;

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
    // Let it lapse (the clock is D1's, so move the stored expiry instead of waiting an hour).
    await env.DB.prepare("UPDATE api_keys SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(id).run();
    const expired = await call("/api/v1/tasks", { token: key });
    expect(expired.status).toBe(401);
    expect((await json(expired)).code).toBe("unauthorized");
    const past = await call("/account/api-keys", {
      token: user.session,
      body: { name: "past", expiresAt: "2001-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
  });

  it("refreshes lastUsedAt at most once a minute per key", async () => {
    const user = await maxUser("last-used");
    await callWith({}, "/api/v1/tasks", { token: user.key });
    const first = await lastUsedAt(user.keyId);
    expect(first).toMatch(/Z$/);
    for (let i = 0; i < 5; i++) await callWith({}, "/api/v1/tasks", { token: user.key });
    expect(await lastUsedAt(user.keyId)).toBe(first);
    await env.DB.prepare("UPDATE api_keys SET last_used_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(user.keyId)
      .run();
    await callWith({}, "/api/v1/tasks", { token: user.key });
    expect(await lastUsedAt(user.keyId)).not.toBe("2000-01-01T00:00:00.000Z");
  });

  it("updates lastUsedAt through ctx.waitUntil: the response does not wait for it", async () => {
    const user = await maxUser("wait-until");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let touched = false;
    const held = faultyD1(env.DB, { injected: 0 });
    const prepare = held.prepare.bind(held);
    // The UPDATE of last_used_at waits for the gate; everything else runs normally.
    held.prepare = (sql: string) => {
      const statement = prepare(sql);
      if (!/update\s+"api_keys"/i.test(sql)) return statement;
      const bind = statement.bind.bind(statement);
      statement.bind = (...values: unknown[]) => {
        const bound = bind(...values);
        const run = bound.run.bind(bound);
        bound.run = async () => {
          await gate;
          touched = true;
          return run();
        };
        return bound;
      };
      return statement;
    };
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/api/v1/tasks`, { headers: { Authorization: `Bearer ${user.key}` } });
    const response = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...env, DB: held } as Env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(touched).toBe(false);
    release();
    await waitOnExecutionContext(ctx);
    expect(touched).toBe(true);
    expect(await lastUsedAt(user.keyId)).toMatch(/Z$/);
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
      // Failures log something: the database failing while the key and password are in flight.
      const down = faultyD1(env.DB, { injected: 0, failWhen: () => true });
      await callWith({ DB: down }, "/api/v1/tasks", { token: user.key });
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
