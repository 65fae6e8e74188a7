import type { Client } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { maxUser } from "../helpers";
import { mcpClient } from "./client";

let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

beforeAll(async () => {
  const user = await maxUser();
  tools = (await (await mcpClient(user.key)).listTools()).tools;
});

const tool = (name: string) => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe("tools/list", () => {
  it("names exactly the four tools", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(["complete_task", "create_task", "list_calendar_packs", "list_tasks"]);
  });

  it.each([
    // name,                 readOnly, destructive, idempotent
    ["list_tasks", true, false, true],
    ["create_task", false, false, false],
    ["complete_task", false, false, true],
    ["list_calendar_packs", true, false, true],
  ] as const)("pins the annotations of %s", (name, readOnlyHint, destructiveHint, idempotentHint) => {
    expect(tool(name).annotations).toMatchObject({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint: false });
  });

  it.each(["list_tasks", "create_task", "complete_task", "list_calendar_packs"])(
    "describes %s for a model: title, description, inline object input and output schemas in JSON Schema 2020-12",
    (name) => {
      const t = tool(name);
      expect(t.title).toBeTruthy();
      expect(t.description!.length).toBeGreaterThan(150);
      for (const schema of [t.inputSchema, t.outputSchema!]) {
        expect(schema.type).toBe("object");
        expect(JSON.stringify(schema)).not.toContain("draft-07");
        // Inline schemas: some clients and models do not resolve `$ref`s.
        expect(JSON.stringify(schema)).not.toContain("$ref");
        expect([undefined, "https://json-schema.org/draft/2020-12/schema"]).toContain(schema.$schema);
      }
    },
  );

  it("publishes the field rules in the input schemas", () => {
    const create = tool("create_task").inputSchema as any;
    expect(create.required).toEqual(["title"]);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.title.maxLength).toBe(500);
    expect(create.properties.notes.maxLength).toBe(20000);
    expect(Object.keys(create.properties).sort()).toEqual(["clientRequestId", "due", "important", "listId", "notes", "reminder", "repeat", "title"]);
    const list = tool("list_tasks").inputSchema as any;
    expect(list.properties.limit).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(Object.keys(list.properties).sort()).toEqual(["completed", "cursor", "limit", "listId", "since"]);
    expect((tool("complete_task").inputSchema as any).required).toEqual(["id"]);
    expect(Object.keys((tool("list_calendar_packs").inputSchema as any).properties).sort()).toEqual(["country", "query"]);
  });
});
