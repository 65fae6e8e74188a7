import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { maxUser } from "../helpers";
import { faultyD1 } from "../hardening/support";
import { connect, MCP, ORIGIN, toolCall } from "./support";

/**
 * The key path did not change with OAuth: through the Worker's real entry (src/index.ts), a key on
 * /mcp reads no KV and costs the D1 round trips it cost before. An OAuth token's path is measured too.
 */
function watched() {
  const seen = { kvReads: 0, d1Trips: 0 };
  const kv = new Proxy(env.OAUTH_KV, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "get" || prop === "getWithMetadata" || prop === "list") seen.kvReads++;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const count = <T extends object>(statement: T): T =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind")
          return (...args: unknown[]) => count((value as (...a: unknown[]) => T).apply(target, args));
        if (["first", "all", "run", "raw"].includes(String(prop))) seen.d1Trips++;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => count(target.prepare(sql));
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          seen.d1Trips++;
          return target.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { seen, env: { ...env, OAUTH_KV: kv, DB: db } as Env };
}

async function listTasksWith(token: string, patched: Env) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(MCP, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(toolCall("list_tasks")),
    }) as Request<unknown, IncomingRequestCfProperties>,
    patched,
    ctx,
  );
  const body = (await response.json()) as { result?: { isError?: boolean } };
  await waitOnExecutionContext(ctx);
  return { status: response.status, body };
}

describe("the key path beside OAuth", () => {
  it("serves list_tasks for an API key with no KV read and one D1 round trip", async () => {
    const user = await maxUser("key-path");
    await listTasksWith(user.key, env); // lastUsedAt is fresh: no refresh below
    const { seen, env: patched } = watched();
    const { status, body } = await listTasksWith(user.key, patched);
    expect(status).toBe(200);
    expect(body.result?.isError).toBeFalsy();
    expect(seen).toEqual({ kvReads: 0, d1Trips: 1 });
  });

  it("serves list_tasks for an OAuth token with one KV read (the token) and two D1 round trips", async () => {
    const user = await maxUser("oauth-path");
    const { access_token } = await connect(user);
    await listTasksWith(access_token, env);
    const { seen, env: patched } = watched();
    const { status } = await listTasksWith(access_token, patched);
    expect(status).toBe(200);
    // The connection and Max in one statement, then the listing itself.
    expect(seen).toEqual({ kvReads: 1, d1Trips: 2 });
  });
});

describe("D1 outages on the OAuth paths", () => {
  it("answers 503 with Retry-After, never 500, when D1 fails during the connection check or a refresh", async () => {
    const user = await maxUser("oauth-fault");
    const tokens = await connect(user);
    const plan = { failWhen: (sql: string) => sql.includes("oauth_connections"), injected: 0 };
    const broken = { ...env, DB: faultyD1(env.DB, plan) } as Env;
    const mcp = await listTasksWith(tokens.access_token, broken);
    expect(mcp.status).toBe(503);
    const ctx = createExecutionContext();
    const refreshed = await worker.fetch(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token,
          client_id: tokens.clientId,
        }).toString(),
      }) as Request<unknown, IncomingRequestCfProperties>,
      broken,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(refreshed.status).toBe(503);
    expect(refreshed.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(plan.injected).toBe(2);
  });
});
