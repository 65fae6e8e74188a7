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

/** Every tool and its hints, in one table: clients decide on confirmation prompts from them. */
const HINTS = [
  // name,                readOnly, destructive, idempotent
  ["list_tasks", true, false, true],
  ["create_task", false, false, false],
  ["update_task", false, false, true],
  ["complete_task", false, false, true],
  ["delete_task", false, true, true],
  ["list_calendar_packs", true, false, true],
  ["list_holidays", true, false, true],
] as const;

describe("tools/list", () => {
  it("names exactly these tools, the spec's four among them", () => {
    expect(tools.map((t) => t.name)).toEqual(HINTS.map(([name]) => name));
  });

  it.each(HINTS)("pins the annotations of %s", (name, readOnlyHint, destructiveHint, idempotentHint) => {
    expect(tool(name).annotations).toEqual({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint: false });
  });

  it.each(HINTS.map(([name]) => name))(
    "describes %s for a model: title, description, object schemas in JSON Schema 2020-12",
    (name) => {
      const t = tool(name);
      expect(t.title).toBeTruthy();
      expect(t.description!.length).toBeGreaterThan(60);
      for (const schema of [t.inputSchema, t.outputSchema!]) {
        expect(schema.type).toBe("object");
        expect([undefined, "https://json-schema.org/draft/2020-12/schema"]).toContain(schema.$schema);
        expect(JSON.stringify(schema)).not.toMatch(/draft-07|"example/);
      }
      // Arguments inline: some hosts do not resolve `$ref`s in input schemas. Outputs share `Task` under `$defs`.
      expect(JSON.stringify(t.inputSchema)).not.toContain("$ref");
      for (const [, ref] of JSON.stringify(t.outputSchema).matchAll(/"#\/\$defs\/([^"]+)"/g)) {
        expect((t.outputSchema as any).$defs).toHaveProperty(ref!);
      }
    },
  );

  it("publishes the field rules in the input schemas", () => {
    const create = tool("create_task").inputSchema as any;
    expect(create.required).toEqual(["title"]);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.title).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(create.properties.notes.maxLength).toBe(20000);
    expect(create.properties.reminder.format).toBe("date-time");
    expect(create.properties.due.description).toContain("YYYY-MM-DD");
    expect(Object.keys(create.properties).sort()).toEqual([
      "clientRequestId",
      "due",
      "important",
      "labels",
      "listId",
      "notes",
      "parentId",
      "priority",
      "reminder",
      "repeat",
      "subtasks",
      "title",
    ]);
    // A plan in one call: one level of subtasks, inline (no `$ref` in arguments), up to 50.
    expect(create.properties.subtasks).toMatchObject({ type: "array", minItems: 1, maxItems: 50 });
    expect(create.properties.subtasks.items.required).toEqual(["title"]);
    expect(create.properties.subtasks.items.properties).not.toHaveProperty("listId");
    const update = tool("update_task").inputSchema as any;
    expect(update.required).toEqual(["id"]);
    expect(Object.keys(update.properties).sort()).toEqual([
      "after",
      "before",
      "completed",
      "due",
      "id",
      "important",
      "labels",
      "listId",
      "notes",
      "parentId",
      "priority",
      "reminder",
      "repeat",
      "title",
    ]);
    expect(update.properties.reminder.anyOf).toEqual([{ type: "string", format: "date-time" }, { type: "null" }]);
    const list = tool("list_tasks").inputSchema as any;
    expect(list.properties.limit).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(Object.keys(list.properties).sort()).toEqual([
      "completed",
      "cursor",
      "dueAfter",
      "dueBefore",
      "important",
      "labels",
      "limit",
      "listId",
      "lists",
      "parentId",
      "priority",
      "query",
      "since",
      "sort",
    ]);
    expect(list.properties.labels).toMatchObject({ type: "array", minItems: 1, maxItems: 20 });
    expect(list.properties.lists.type).toBe("boolean");
    expect((tool("complete_task").inputSchema as any).required).toEqual(["id"]);
    expect((tool("delete_task").inputSchema as any).required).toEqual(["id"]);
    expect(Object.keys((tool("list_calendar_packs").inputSchema as any).properties).sort()).toEqual([
      "country",
      "cursor",
      "limit",
      "query",
    ]);
    expect(Object.keys((tool("list_holidays").inputSchema as any).properties).sort()).toEqual([
      "country",
      "from",
      "pack",
      "region",
      "to",
      "type",
      "year",
    ]);
  });

  it("publishes no date regex: formats instead, while validation keeps its strict rules", () => {
    expect(JSON.stringify(tools)).not.toContain("(?:");
  });
});
