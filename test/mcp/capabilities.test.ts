import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { call, maxUser } from "../helpers";
import { mcpClient, rpc, rpcResult } from "./client";

/**
 * Issue 37 item 3: the server advertises only what it delivers. Each advertised capability is used
 * here the way a client would; one this test does not know how to exercise fails it, so a capability
 * the SDK starts advertising (or one added without a test) is noticed.
 */
type Capabilities = Record<string, Record<string, unknown> | undefined>;

const exercise: Record<string, (client: Client) => Promise<void>> = {
  async tools(client) {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const result = await client.callTool({ name: "list_calendar_packs", arguments: {} });
    expect(result.isError).toBeFalsy();
  },
  async resources(client) {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) {
      const { contents } = await client.readResource({ uri: resource.uri });
      expect(contents[0]).toMatchObject({ uri: resource.uri, mimeType: resource.mimeType });
    }
  },
};

/** Flags that promise server-to-client messages: nothing can carry them (GET /mcp is 405, no sessions). */
function expectNoPushFlags(capabilities: Capabilities) {
  for (const [name, value] of Object.entries(capabilities)) {
    expect(value?.listChanged, `${name}.listChanged`).not.toBe(true);
    expect(value?.subscribe, `${name}.subscribe`).not.toBe(true);
  }
}

describe("MCP capabilities", () => {
  for (const modern of [false, true]) {
    it(`are each exercised (${modern ? "2026-07-28" : "2025 initialize"})`, async () => {
      const user = await maxUser();
      const client = await mcpClient(user.key, { modern });
      const capabilities = client.getServerCapabilities() as Capabilities;
      expect(Object.keys(capabilities).sort()).toEqual(Object.keys(exercise).sort());
      expectNoPushFlags(capabilities);
      for (const name of Object.keys(capabilities)) await exercise[name]!(client);
      await client.close();
    });
  }

  it("advertise no list_changed over a raw initialize, since the stream that would carry it is 405", async () => {
    const user = await maxUser();
    const { result } = await rpcResult(
      await rpc(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
        { token: user.key },
      ),
    );
    expectNoPushFlags(result.capabilities);
    expect(Object.keys(result.capabilities).sort()).toEqual(Object.keys(exercise).sort());
    const stream = await call("/mcp", { token: user.key, headers: { Accept: "text/event-stream" } });
    expect(stream.status).toBe(405);
  });
});
