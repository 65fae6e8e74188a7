import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { handleMcp } from "../../src/mcp/handler";
import { call, createTask, maxUser } from "../helpers";
import { probedAccounts, probedD1 } from "../support/d1-probes";

/**
 * Every task request is one call from the Worker to the account's object, and no D1 query: the object
 * judges the key (or connection) and Max, and runs the verb (docs/scaling.md, "Hops").
 */
interface Hops {
  status: number;
  d1: number;
  objectCalls: string[];
  body: any;
}

function probedEnv() {
  const d1 = probedD1(env.DB);
  const accounts = probedAccounts(env.ACCOUNTS);
  return { env: { ...env, DB: d1.db, ACCOUNTS: accounts.namespace } as Env, d1, accounts };
}

async function restHops(key: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Hops> {
  const probe = probedEnv();
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://example.com${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await createApp().fetch(request, probe.env, ctx);
  const body = res.status === 204 ? null : await res.json();
  await waitOnExecutionContext(ctx);
  return { status: res.status, d1: probe.d1.counter.trips, objectCalls: probe.accounts.calls, body };
}

async function mcpHops(key: string, name: string, args: Record<string, unknown>): Promise<Hops> {
  const probe = probedEnv();
  const ctx = createExecutionContext();
  const request = new Request("http://example.com/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const res = await handleMcp(request, probe.env, ctx);
  const body = await res.json();
  await waitOnExecutionContext(ctx);
  return { status: res.status, d1: probe.d1.counter.trips, objectCalls: probe.accounts.calls, body };
}

const oneHop = (hops: Hops, status: number) =>
  expect([hops.status, hops.d1, hops.objectCalls]).toEqual([status, 0, ["run"]]);

describe("a task request is one call to the account's object and no D1 query", () => {
  it("on every REST task and list route", async () => {
    const user = await maxUser("hops");
    const created = await restHops(user.key, "/api/v1/tasks", { method: "POST", body: { title: "one hop" } });
    oneHop(created, 201);
    const id = created.body.id as string;
    oneHop(await restHops(user.key, "/api/v1/tasks"), 200);
    oneHop(await restHops(user.key, "/api/v1/tasks?q=hop&limit=5"), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks?since=${new Date(Date.now() - 60_000).toISOString()}`), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}`), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}?subtasks=true`), 200);
    oneHop(await restHops(user.key, "/api/v1/tasks?sort=position&priority=1,2&parentId="), 200);
    const plan = { title: "plan", subtasks: [{ title: "step", subtasks: [{ title: "detail" }] }] };
    oneHop(await restHops(user.key, "/api/v1/tasks", { method: "POST", body: plan }), 201);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}/move`, { method: "POST", body: { listId: "moved" } }), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}`, { method: "PATCH", body: { title: "renamed" } }), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}`, { method: "PATCH", body: { completed: true } }), 200);
    oneHop(await restHops(user.key, `/api/v1/tasks/${id}`, { method: "DELETE" }), 204);
    oneHop(await restHops(user.key, "/api/v1/lists", { method: "POST", body: { id: "hops", name: "Hops" } }), 201);
    oneHop(await restHops(user.key, "/api/v1/lists"), 200);
    oneHop(await restHops(user.key, "/api/v1/lists/hops", { method: "PATCH", body: { name: "Hops 2" } }), 200);
    oneHop(await restHops(user.key, "/api/v1/lists/hops", { method: "DELETE" }), 204);
    const label = await restHops(user.key, "/api/v1/labels", {
      method: "POST",
      body: { name: "hop", color: "#00ff00" },
    });
    oneHop(label, 201);
    const labelled = await restHops(user.key, "/api/v1/tasks", {
      method: "POST",
      body: { title: "t", labels: ["Hop"] },
    });
    oneHop(labelled, 201);
    oneHop(await restHops(user.key, "/api/v1/tasks?label=hop&label=new&q=hop"), 200);
    oneHop(await restHops(user.key, "/api/v1/labels"), 200);
    const labelPath = `/api/v1/labels/${label.body.id}`;
    oneHop(await restHops(user.key, labelPath, { method: "PATCH", body: { name: "hops" } }), 200);
    oneHop(await restHops(user.key, labelPath, { method: "DELETE" }), 204);
  });

  it("on the tasks page's routes: the session's one D1 lookup, then the same one call", async () => {
    const user = await maxUser("hops-page");
    // The session is judged once, though two groups' guards cover /account/tasks (src/http/access.ts).
    const pageHop = (hops: Hops, status: number) =>
      expect([hops.status, hops.d1, hops.objectCalls]).toEqual([status, 1, ["run"]]);
    const created = await restHops(user.session, "/account/tasks", { method: "POST", body: { title: "page" } });
    pageHop(created, 201);
    pageHop(await restHops(user.session, "/account/tasks"), 200);
    pageHop(await restHops(user.session, `/account/tasks/${created.body.id}`, { method: "PATCH", body: {} }), 200);
    pageHop(await restHops(user.session, "/account/lists"), 200);
    pageHop(await restHops(user.session, "/account/labels"), 200);
  });

  it("on every webhook route", async () => {
    const user = await maxUser("hops-webhooks");
    const url = "http://127.0.0.1:9/hops";
    const created = await restHops(user.key, "/api/v1/webhooks", { method: "POST", body: { url } });
    oneHop(created, 201);
    const path = `/api/v1/webhooks/${created.body.id}`;
    oneHop(await restHops(user.key, "/api/v1/webhooks"), 200);
    oneHop(await restHops(user.key, path, { method: "PATCH", body: { description: "hops" } }), 200);
    oneHop(await restHops(user.key, `${path}/test`, { method: "POST", body: {} }), 202);
    oneHop(await restHops(user.key, `${path}/deliveries`), 200);
    oneHop(await restHops(user.key, path, { method: "DELETE" }), 204);
  });

  it("for a repeating task's completion and an idempotent create", async () => {
    const user = await maxUser("hops-repeat");
    const task = await createTask(user.key, { title: "Daily", due: "2026-12-01", repeat: "FREQ=DAILY" });
    const completed = await restHops(user.key, `/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      body: { completed: true },
    });
    oneHop(completed, 200);
    const probe = probedEnv();
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request("http://example.com/api/v1/tasks", {
        method: "POST",
        headers: {
          authorization: `Bearer ${user.key}`,
          "content-type": "application/json",
          "idempotency-key": "hop-1",
        },
        body: JSON.stringify({ title: "once" }),
      }),
      probe.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect([res.status, probe.d1.counter.trips, probe.accounts.calls]).toEqual([201, 0, ["run"]]);
  });

  it("on every MCP task tool", async () => {
    const user = await maxUser("hops-mcp");
    const created = await mcpHops(user.key, "create_task", { title: "over MCP" });
    oneHop(created, 200);
    const id = created.body.result.structuredContent.task.id as string;
    oneHop(await mcpHops(user.key, "list_tasks", {}), 200);
    oneHop(await mcpHops(user.key, "list_tasks", { lists: true, query: "mcp" }), 200);
    oneHop(await mcpHops(user.key, "update_task", { id, title: "renamed" }), 200);
    oneHop(await mcpHops(user.key, "complete_task", { id }), 200);
    oneHop(await mcpHops(user.key, "delete_task", { id }), 200);
  });

  it("refuses a revoked key in that same one call", async () => {
    const user = await maxUser("hops-revoked");
    await restHops(user.key, "/api/v1/tasks");
    expect((await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session })).status).toBe(204);
    const refused = await restHops(user.key, "/api/v1/tasks");
    expect([refused.status, refused.d1, refused.objectCalls]).toEqual([401, 0, ["run"]]);
  });
});

describe("an MCP task request with an OAuth token", () => {
  it("is one call to the account's object and no D1 query (the provider reads the token from KV)", async () => {
    const { connect, ORIGIN } = await import("../oauth/support");
    const { handleOAuth } = await import("../../src/oauth/provider");
    const user = await maxUser("hops-oauth");
    const tokens = await connect(user);
    const probe = probedEnv();
    const ctx = createExecutionContext();
    const request = new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "create_task", arguments: { title: "over OAuth" } },
      }),
    });
    const res = await handleOAuth(request as Parameters<typeof handleOAuth>[0], probe.env, ctx, createApp());
    const body: any = await res.json();
    await waitOnExecutionContext(ctx);
    expect(body.result.structuredContent.task.title).toBe("over OAuth");
    expect([res.status, probe.d1.counter.trips, probe.accounts.calls]).toEqual([200, 0, ["run"]]);
  });
});
