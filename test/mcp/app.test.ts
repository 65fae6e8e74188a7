import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { maxUser } from "../helpers";
import { connect, mcpClient as oauthClient } from "../oauth/support";
import { mcpClient, rpc, rpcResult } from "./client";

/** Issue 37 item 2: the tasks MCP App as a `ui://` resource, linked from list_tasks. */
const URI = "ui://tasks/app.html";

async function readApp(client: Awaited<ReturnType<typeof mcpClient>>) {
  const { contents } = await client.readResource({ uri: URI });
  expect(contents).toHaveLength(1);
  const [content] = contents as { uri: string; mimeType: string; text: string; _meta?: any }[];
  return content!;
}

/** The page's own CSP, from its meta tag. */
const cspOf = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";

describe("the tasks MCP App", () => {
  it("is listed with the MCP Apps mime type and a CSP that allows no source", async () => {
    const client = await mcpClient((await maxUser()).key);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri: URI,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: expect.objectContaining({ csp: { connectDomains: [], resourceDomains: [] } }) },
      }),
    ]);
  });

  it("reads as one self-contained HTML file under 200 KiB gzip, with a strict CSP", async () => {
    const client = await mcpClient((await maxUser()).key);
    const app = await readApp(client);
    expect(app).toMatchObject({ uri: URI, mimeType: "text/html;profile=mcp-app" });
    expect(app._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    const html = app.text;
    expect(html).toMatch(/^<!doctype html>/);
    // Self-contained: no external script, stylesheet or image.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src="http/);
    const csp = cspOf(html);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).not.toMatch(/\*|'unsafe-inline'|'unsafe-eval'|https?:/);
    const gzipKiB = gzipSync(html).length / 1024;
    console.log(`ui://tasks/app.html: ${(html.length / 1024).toFixed(1)} KiB, ${gzipKiB.toFixed(1)} KiB gzip`);
    expect(gzipKiB).toBeLessThan(200);
  });

  it("is linked from list_tasks with _meta.ui.resourceUri, and list_tasks still answers text and structure", async () => {
    const user = await maxUser();
    const { result } = await rpcResult(
      await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { token: user.key }),
    );
    const byName = Object.fromEntries(result.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(byName.list_tasks._meta).toEqual({ ui: { resourceUri: URI } });
    // Only the tool that shows the app carries a link.
    expect(result.tools.filter((tool: { _meta?: unknown }) => tool._meta)).toHaveLength(1);
    const client = await mcpClient(user.key);
    const listed = await client.callTool({ name: "list_tasks", arguments: {} });
    expect(listed.content).toEqual([expect.objectContaining({ type: "text" })]);
    expect(listed.structuredContent).toMatchObject({ tasks: [], count: 0 });
  });

  it("marks an API key's app and a tasks:write grant's as writable", async () => {
    const user = await maxUser("app-write");
    expect((await readApp(await mcpClient(user.key))).text).toContain('<meta name="tasks-access" content="write">');
    const { access_token } = await connect(user);
    const app = await readApp(await oauthClient(access_token));
    expect(app.text).toContain('<meta name="tasks-access" content="write">');
  });

  it("still serves a tasks:read grant the app, marked read-only so its writes are disabled", async () => {
    const user = await maxUser("app-read");
    const { access_token } = await connect(user, { scope: "tasks:read" });
    const client = await oauthClient(access_token);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([URI]);
    const app = await readApp(client);
    expect(app.text).toContain('<meta name="tasks-access" content="read">');
    expect(app.text).not.toContain("{{access}}");
  });

  it("is refused without a live credential, like every other MCP request", async () => {
    const read = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: URI } };
    expect((await rpc(read)).status).toBe(401);
    expect((await rpc(read, { token: "not-a-key" })).status).toBe(401);
  });
});
