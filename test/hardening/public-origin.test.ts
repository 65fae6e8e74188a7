import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src";
import { createKey, json, maxUser, signUp } from "../helpers";

/**
 * Absolute URLs come from PUBLIC_ORIGIN where it is set (production), never from the request's
 * Host, which `wrangler dev` takes from the client. Unset (local), they follow the request.
 */

const PUBLIC = "https://todo.example.com";
// What a client that sets its own Host header looks like to the Worker under wrangler dev.
const SPOOFED = "http://attacker.example";

async function send(
  origin: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> },
  publicOrigin: string,
) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const method = init.method ?? (init.body === undefined ? "GET" : "POST");
  const request = new Request(`${origin}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, PUBLIC_ORIGIN: publicOrigin } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** Every absolute URL the service builds, as answered to a request for `origin`. */
async function absoluteUrls(origin: string, publicOrigin: string): Promise<string[]> {
  const user = await maxUser("origin");
  const free = await signUp("origin-free");
  const freeKey = await createKey(free.session);
  const created = await send(
    origin,
    "/api/v1/tasks",
    { token: user.key, body: { title: "Where am I?" } },
    publicOrigin,
  );
  expect(created.status).toBe(201);
  const root = await json(await send(origin, "/api/v1/", {}, publicOrigin));
  const openapi = await json(await send(origin, "/api/v1/openapi.json", {}, publicOrigin));
  const problem = await json(await send(origin, "/api/v1/tasks", {}, publicOrigin));
  const mcp = await send(
    origin,
    "/mcp",
    {
      method: "POST",
      token: freeKey.key,
      headers: { accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_task", arguments: { title: "x" } } },
    },
    publicOrigin,
  );
  // The upgrade link of a `max_required` tool error points at the account page.
  const upgrade = /https?:\/\/[^\s"\\]+\//.exec(await mcp.text())?.[0];
  const packs = await send(
    origin,
    "/mcp",
    {
      token: freeKey.key,
      headers: { accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "list_calendar_packs", arguments: { query: "Bavaria" } },
      },
    },
    publicOrigin,
  );
  const [pack] = (await json(packs)).result.structuredContent.packs;
  const mcpProblem = await json(
    await send(origin, "/mcp", { body: { jsonrpc: "2.0", id: 3, method: "tools/list" } }, publicOrigin),
  );
  return [
    created.headers.get("location")!,
    ...Object.values<string>(root.links),
    openapi.servers[0].url,
    problem.type,
    upgrade ?? "(no upgrade link)",
    pack.url,
    pack.icsUrl,
    mcpProblem.type,
  ];
}

describe("absolute URLs", () => {
  it("are built from PUBLIC_ORIGIN when it is set, whatever Host the client sent", async () => {
    const urls = await absoluteUrls(SPOOFED, PUBLIC);
    expect(urls.length).toBeGreaterThanOrEqual(12);
    for (const url of urls) expect(url, url).toMatch(new RegExp(`^${PUBLIC}/`));
  });

  it("follow the request's own origin when PUBLIC_ORIGIN is empty (local development)", async () => {
    const local = "http://localhost:8787";
    for (const url of await absoluteUrls(local, "")) expect(url, url).toMatch(new RegExp(`^${local}/`));
  });

  it("ignore a trailing slash in PUBLIC_ORIGIN", async () => {
    const root = await json(await send(SPOOFED, "/api/v1/", {}, `${PUBLIC}/`));
    expect(root.links.docs).toBe(`${PUBLIC}/api/v1/docs`);
  });
});
