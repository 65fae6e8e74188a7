import { describe, expect, it } from "vitest";
import { maxUser } from "../helpers";
import { connect, mcpCall, mcpClient, toolCall } from "./support";

/**
 * tools/list offers a connection only the tools its scopes allow (issue 26): a read-only connection
 * that were offered create_task would get a 403, which the 1.x SDK turns into "Server returned 403
 * after trying upscoping", and the model would never learn why.
 */
const READ_TOOLS = ["list_tasks", "list_calendar_packs", "list_holidays"];
const ALL_TOOLS = [
  "list_tasks",
  "create_task",
  "update_task",
  "complete_task",
  "delete_task",
  "list_calendar_packs",
  "list_holidays",
];

describe("tools/list by OAuth scope", () => {
  it("offers a tasks:read connection the read-only tools only, and still refuses a write tool with 403", async () => {
    const user = await maxUser("scoped-read");
    const { access_token, scope } = await connect(user, { scope: "tasks:read" });
    expect(scope).toBe("tasks:read");
    const client = await mcpClient(access_token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(READ_TOOLS);
    expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
    // The offered tools work.
    const listed = await client.callTool({ name: "list_tasks", arguments: {} });
    expect(listed.isError).toBeFalsy();
    // A client that calls a write tool anyway still gets the clear 403 naming the scope.
    const res = await mcpCall(access_token, toolCall("create_task", { title: "Must not exist" }));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('scope="tasks:write"');
  });

  it("offers the same read-only tools to a raw tools/list without initialize", async () => {
    const user = await maxUser("scoped-raw");
    const { access_token } = await connect(user, { scope: "tasks:read" });
    const res = await mcpCall(access_token, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(res.status).toBe(200);
    const body = JSON.parse(
      (await res.text())
        .split("\n")
        .filter((l) => l.startsWith("data:") || l.startsWith("{"))
        .map((l) => l.replace(/^data:\s*/, ""))
        .at(-1)!,
    );
    expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(READ_TOOLS);
  });

  it("offers every tool to a connection with tasks:write, as to an API key", async () => {
    const user = await maxUser("scoped-write");
    const { access_token } = await connect(user);
    expect((await (await mcpClient(access_token)).listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS);
  });
});

describe("the server's instructions by OAuth scope", () => {
  const WRITE_TOOLS = ["create_task", "update_task", "complete_task", "delete_task"];

  it("name no write tool, and ask for no write confirmation, to a tasks:read connection", async () => {
    const user = await maxUser("instr-read");
    const { access_token } = await connect(user, { scope: "tasks:read" });
    const instructions = (await mcpClient(access_token)).getInstructions() ?? "";
    expect(instructions).toContain("list_tasks");
    for (const name of WRITE_TOOLS) expect(instructions).not.toContain(name);
    expect(instructions).not.toMatch(/before creating|creates a list/);
    expect(instructions).toContain("may read tasks but not change them");
  });

  it("name every task tool to a connection with tasks:write", async () => {
    const user = await maxUser("instr-write");
    const { access_token } = await connect(user);
    const instructions = (await mcpClient(access_token)).getInstructions() ?? "";
    for (const name of WRITE_TOOLS) expect(instructions).toContain(name);
    expect(instructions).toContain("Confirm with the user before creating");
  });
});
