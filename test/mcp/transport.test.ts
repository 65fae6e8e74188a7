import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handleMcp, originAllowed } from "../../src/mcp/handler";
import { call, createKey, grant, json, maxUser, signUp } from "../helpers";
import { MCP_HEADERS, mcpClient, rpc, rpcResult, toolErrorOf } from "./client";

const toolsList = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

async function expectUnauthorized(response: Response, secret?: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  const text = await response.text();
  expect(JSON.parse(text).code).toBe("unauthorized");
  if (secret) expect(text).not.toContain(secret);
}

describe("MCP transport", () => {
  it("answers a plain tools/list POST, as the spec shows it, without a prior initialize", async () => {
    const user = await maxUser();
    const response = await rpc(toolsList, { token: user.key });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await rpcResult(response);
    expect(body.id).toBe(1);
    expect(body.result.tools).toHaveLength(7);
  });

  it("answers a 2025-era request with one JSON body, not a one-event SSE stream", async () => {
    const user = await maxUser();
    const response = await rpc(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "list_tasks", arguments: {} } },
      { token: user.key },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    const body = JSON.parse(await response.text());
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: { tasks: [], count: 0 } } });
  });

  it("serves 2025-era clients and the 2026-07-28 revision from the same endpoint", async () => {
    const user = await maxUser();
    for (const modern of [false, true]) {
      const client = await mcpClient(user.key, { modern });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(7);
      const result = await client.callTool({ name: "list_tasks", arguments: {} });
      expect(result.isError).toBeFalsy();
      await client.close();
    }
  });

  it("answers GET /mcp with 405", async () => {
    const user = await maxUser();
    const response = await call("/mcp", { token: user.key, headers: { Accept: "text/event-stream" } });
    expect(response.status).toBe(405);
  });

  it("answers malformed JSON with a JSON-RPC parse error", async () => {
    const user = await maxUser();
    const response = await rpc("{not json", { token: user.key });
    const body = await rpcResult(response);
    expect(body.error.code).toBe(-32700);
    expect(body.result).toBeUndefined();
  });

  it("reads a body with a declared length once, valid or malformed (as real HTTP clients send it)", async () => {
    const user = await maxUser();
    const sized = (text: string) => ({
      token: user.key,
      headers: { "content-length": String(new TextEncoder().encode(text).byteLength) },
    });
    const valid = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_tasks", arguments: { limit: 5 } },
    });
    const ok = await rpc(valid, sized(valid));
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await rpcResult(ok)).result.structuredContent.count).toBe(0);
    const malformed = await rpcResult(await rpc("{not json", sized("{not json")));
    expect(malformed.error.code).toBe(-32700);
    const oversized = await rpc(valid, { token: user.key, headers: { "content-length": String(5 * 1024 * 1024) } });
    expect(oversized.status).toBeGreaterThanOrEqual(400);
    expect(oversized.status).toBeLessThan(500);
  });

  it("answers a message that is not JSON-RPC with a JSON-RPC error", async () => {
    const user = await maxUser();
    const body = await rpcResult(await rpc({ hello: "world" }, { token: user.key }));
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.code).toBeLessThan(-32000);
  });

  it("refuses a JSON-RPC batch on every revision without batches with -32600, and runs none of it", async () => {
    const user = await maxUser();
    const create = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "create_task", arguments: { title: `batched ${id}` } },
    });
    for (const version of ["2025-06-18", "2025-11-25", "2024-11-05", "2026-07-28"]) {
      const response = await rpc([create(1), create(2)], {
        token: user.key,
        headers: { "MCP-Protocol-Version": version },
      });
      expect(response.status, version).toBe(400);
      const body = await rpcResult(response);
      expect(body, version).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    }
    // 2025-03-26 (named, or no header at all) has batches: at most 10 messages, and never an empty one.
    for (const batch of [Array.from({ length: 11 }, (_, i) => create(i)), []]) {
      const body = await rpcResult(
        await rpc(batch, { token: user.key, headers: { "MCP-Protocol-Version": "2025-03-26" } }),
      );
      expect(body.error.code).toBe(-32600);
    }
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).data).toHaveLength(0);
    // The key is still judged first: a refused batch from an unknown key is a 401.
    const fake = `todo_live_${"A".repeat(43)}`;
    await expectUnauthorized(
      await rpc([create(1), create(2)], { token: fake, headers: { "MCP-Protocol-Version": "2025-06-18" } }),
      fake,
    );
  });

  it("answers a 2025-03-26 batch of up to 10 messages with one answer per request", async () => {
    const user = await maxUser();
    const response = await rpc(
      [
        toolsList,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "create_task", arguments: { title: "in a batch" } },
        },
      ],
      {
        token: user.key,
      },
    );
    expect(response.status).toBe(200);
    const answers = (await rpcResult(response)) as { id: number; result: any }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers.find((a) => a.id === 2)!.result.structuredContent.task.title).toBe("in a batch");
  });

  it("answers an unknown tool with a JSON-RPC error, not a tool result", async () => {
    const user = await maxUser();
    const body = await rpcResult(
      await rpc(
        { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "delete_everything", arguments: {} } },
        { token: user.key },
      ),
    );
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("delete_everything");
    expect(body.result).toBeUndefined();
  });
});

describe("MCP authentication", () => {
  it("refuses a request without a key with 401 and WWW-Authenticate: Bearer", async () => {
    await expectUnauthorized(await rpc(toolsList));
  });

  it("refuses an unknown key with 401 without echoing it", async () => {
    const fake = `todo_live_${"A".repeat(43)}`;
    await expectUnauthorized(await rpc(toolsList, { token: fake }), fake);
  });

  it("refuses the account's sign-in token with 401", async () => {
    const account = await signUp();
    await grant(account.email, "max");
    await expectUnauthorized(await rpc(toolsList, { token: account.session }), account.session);
  });

  it("refuses a revoked key on the very next request", async () => {
    const user = await maxUser();
    expect((await rpc(toolsList, { token: user.key })).status).toBe(200);
    const revoked = await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    expect(revoked.status).toBe(204);
    await expectUnauthorized(await rpc(toolsList, { token: user.key }), user.key);
  });

  it("makes the official client fail to connect without a key, with the 401", async () => {
    await expect(mcpClient(undefined)).rejects.toThrow(/401|unauthorized/i);
  });

  it("refuses task tools once the membership lapses, on the next request", async () => {
    const user = await maxUser();
    const client = await mcpClient(user.key);
    expect((await client.callTool({ name: "list_tasks", arguments: {} })).isError).toBeFalsy();
    await grant(user.email, "free");
    const result = await client.callTool({ name: "list_tasks", arguments: {} });
    expect(toolErrorOf(result).code).toBe("max_required");
  });
});

describe("MCP Origin check", () => {
  it("refuses a foreign browser Origin with 403 before authentication", async () => {
    const user = await maxUser();
    for (const token of [user.key, undefined]) {
      const response = await rpc(toolsList, { token, headers: { Origin: "https://evil.example" } });
      expect(response.status).toBe(403);
      expect((await json(response)).code).toBe("forbidden_origin");
    }
  });

  it("refuses the opaque `null` Origin", async () => {
    const user = await maxUser();
    expect((await rpc(toolsList, { token: user.key, headers: { Origin: "null" } })).status).toBe(403);
  });

  it("allows the service's own origin and clients that send no Origin", async () => {
    const user = await maxUser();
    expect((await rpc(toolsList, { token: user.key, headers: { Origin: "http://example.com" } })).status).toBe(200);
    expect((await rpc(toolsList, { token: user.key })).status).toBe(200);
  });

  it("allows localhost pages only while the Worker itself runs on localhost (development)", async () => {
    const user = await maxUser();
    const headers = {
      ...MCP_HEADERS,
      "Content-Type": "application/json",
      Authorization: `Bearer ${user.key}`,
      Origin: "http://localhost:6274",
    };
    const body = JSON.stringify(toolsList);
    const local = await exports.default.fetch(
      new Request("http://localhost:8787/mcp", {
        method: "POST",
        headers: { ...headers, Host: "localhost:8787" },
        body,
      }),
    );
    expect(local.status).toBe(200);
    const deployed = await exports.default.fetch(
      new Request("https://todo.example.com/mcp", {
        method: "POST",
        headers: { ...headers, Host: "todo.example.com" },
        body,
      }),
    );
    expect(deployed.status).toBe(403);
  });

  it("answers a CORS preflight from an allowed origin without credentials", async () => {
    const response = await call("/mcp", {
      method: "OPTIONS",
      headers: { Origin: "http://example.com", "Access-Control-Request-Method": "POST", ...MCP_HEADERS },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
  });

  it("takes extra hostnames from the ALLOWED_ORIGINS var", () => {
    const withVar = { ...env, ALLOWED_ORIGINS: "app.example.org, chat.example.net" };
    const request = (origin: string) =>
      new Request("https://todo.example.com/mcp", { method: "POST", headers: { Origin: origin } });
    expect(originAllowed(request("https://app.example.org"), withVar)).toBe(true);
    expect(originAllowed(request("https://chat.example.net:8443"), withVar)).toBe(true);
    expect(originAllowed(request("https://evil.example.org"), withVar)).toBe(false);
    expect(originAllowed(request("https://app.example.org"), { ...env, ALLOWED_ORIGINS: "" })).toBe(false);
  });
});

describe("MCP rate limits (the REST task routes' limits)", () => {
  const limited = { ...env, RATE_LIMITS: "on" };
  async function send(token: string | undefined, ip: string) {
    const headers: Record<string, string> = {
      ...MCP_HEADERS,
      "Content-Type": "application/json",
      "CF-Connecting-IP": ip,
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    const ctx = createExecutionContext();
    const response = await handleMcp(
      new Request("http://example.com/mcp", { method: "POST", headers, body: JSON.stringify(toolsList) }),
      limited,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response;
  }

  it("answers 429 with Retry-After once a key has used its 120 requests per minute", { timeout: 30_000 }, async () => {
    const user = await maxUser();
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    // Windows are aligned to the clock: start in a fresh one if this one is nearly over.
    const left = 60 - ((Date.now() / 1000) % 60);
    if (left < 8) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
    const first = await send(user.key, ip);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toContain("q=120");
    let last = first;
    for (let i = 1; i <= 120 && last.status === 200; i++) last = await send(user.key, ip);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await json(last)).code).toBe("rate_limited");
  });

  it("turns repeated bad keys from one IP into 429", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const left = 60 - ((Date.now() / 1000) % 60);
    if (left < 3) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(`todo_live_${"B".repeat(43)}`, ip)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("MCP keys", () => {
  it("accepts any of an account's keys", async () => {
    const user = await maxUser();
    const second = await createKey(user.session, "second");
    expect((await rpc(toolsList, { token: second.key })).status).toBe(200);
  });
});
