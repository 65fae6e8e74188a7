import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src";
import { faultyD1, unreachableAccounts } from "../hardening/support";
import { maxUser } from "../helpers";
import { probedAccounts } from "../support/d1-probes";
import { connect, MCP, ORIGIN, toolCall } from "./support";

/**
 * The key path did not change with OAuth: through the Worker's real entry (src/index.ts), a key on
 * /mcp reads no KV and no D1, and makes one call to the account's object. An OAuth token's path is
 * measured too: the token from KV, then the same one call.
 */
function watched() {
  const seen = { kvReads: 0, d1Trips: 0, objectCalls: [] as string[] };
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
  const objects = probedAccounts(env.ACCOUNTS);
  seen.objectCalls = objects.calls;
  return { seen, env: { ...env, OAUTH_KV: kv, DB: db, ACCOUNTS: objects.namespace } as Env };
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
  it("serves list_tasks for an API key with no KV read, no D1 query and one call to the account's object", async () => {
    const user = await maxUser("key-path");
    const { seen, env: patched } = watched();
    const { status, body } = await listTasksWith(user.key, patched);
    expect(status).toBe(200);
    expect(body.result?.isError).toBeFalsy();
    expect(seen).toEqual({ kvReads: 0, d1Trips: 0, objectCalls: ["run"] });
  });

  it("serves list_tasks for an OAuth token with one KV read (the token), no D1 query and one object call", async () => {
    const user = await maxUser("oauth-path");
    const { access_token } = await connect(user);
    const { seen, env: patched } = watched();
    const { status } = await listTasksWith(access_token, patched);
    expect(status).toBe(200);
    // The connection and Max are judged by the object, in the call that lists.
    expect(seen).toEqual({ kvReads: 1, d1Trips: 0, objectCalls: ["run"] });
  });
});

describe("storage outages on the OAuth paths", () => {
  it("answers 503 with Retry-After, never 500, when the object fails during the connection check or D1 during a refresh", async () => {
    const user = await maxUser("oauth-fault");
    const tokens = await connect(user);
    const unreachable = unreachableAccounts(env.ACCOUNTS, { message: "Network connection lost.", injected: 0 });
    const mcp = await listTasksWith(tokens.access_token, { ...env, ACCOUNTS: unreachable } as Env);
    expect(mcp.status).toBe(503);
    const plan = { failWhen: (sql: string) => sql.includes("oauth_connections"), injected: 0 };
    const broken = { ...env, DB: faultyD1(env.DB, plan) } as Env;
    // The MCP request reads no D1: a D1 fault does not reach it.
    expect((await listTasksWith(tokens.access_token, broken)).status).toBe(200);
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
    expect(plan.injected).toBe(1);
  });
});
