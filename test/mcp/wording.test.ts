import type { Client } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callError, callOk, mcpClient } from "./client";

/**
 * Errors and descriptions that teach the fix (issue 26): a model that sent a wrong value reads, in the
 * same answer, what to send instead. And the published schemas pass the Inspector's portability lint
 * (`--strict`, run for real by test/clients/mcp-clients.mjs), whose rules are mirrored here.
 */

let client: Client;
let key: string;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

beforeAll(async () => {
  ({ key } = await maxUser("wording"));
  client = await mcpClient(key);
  tools = (await client.listTools()).tools;
});

const property = (tool: string, name: string) =>
  (tools.find((t) => t.name === tool)!.inputSchema as { properties: Record<string, any> }).properties[name];

describe("errors that say how to fix the input", () => {
  it.each([
    ["update_task", { reminder: "" }, "reminder", "send null"],
    // null clears the reminder, so models send it for fields that "" clears (issue 35 item 19).
    ["update_task", { due: null }, "due", 'null is not accepted: send "" to clear it'],
    ["update_task", { notes: null }, "notes", 'null is not accepted: send "" to clear it'],
    ["create_task", { reminder: "" }, "reminder", "leave reminder out"],
    ["create_task", { repeat: "RRULE:FREQ=DAILY" }, "repeat", 'drop the prefix and send the rule alone, "FREQ=DAILY"'],
    ["create_task", { repeat: "every weekday" }, "repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR (every weekday)"],
  ])("%s %j: the error names %s and says %s", async (tool, args, field, fix) => {
    const id = tool === "update_task" ? (await callOk(client, "create_task", { title: "Wording" })).task.id : undefined;
    const error = await callError(client, tool, { ...(id ? { id } : { title: "Wording" }), ...args });
    expect([error.code, error.fields]).toEqual(["validation_failed", [field]]);
    expect(error.line("Fields")).toContain(fix);
  });

  it("says the same over REST, where the values are the same schemas", async () => {
    const res = await call("/api/v1/tasks", { token: key, body: { title: "REST", repeat: "RRULE:FREQ=WEEKLY" } });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual([{ path: "repeat", message: expect.stringContaining('"FREQ=WEEKLY"') }]);
  });

  it('says over REST too that "" clears a field null does not', async () => {
    const task = await createTask(key, { title: "REST clear", due: "2026-12-24", notes: "kept" });
    for (const field of ["due", "notes"]) {
      const res = await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: key, body: { [field]: null } });
      expect(res.status).toBe(400);
      expect((await json(res)).errors).toEqual([{ path: field, message: 'null is not accepted: send "" to clear it' }]);
    }
  });

  it("still takes the rules it suggests", async () => {
    const { task } = await callOk(client, "create_task", {
      title: "Stand-up",
      due: "2026-12-01",
      repeat: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    });
    expect(task.repeat).toBe("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR");
  });
});

describe("descriptions that say how to use an argument", () => {
  it("says what leaving out completed returns, that due filters leave out undated tasks, where list ids come from", () => {
    expect(property("list_tasks", "completed").description).toMatch(/left out: both/);
    expect(tools.find((t) => t.name === "list_tasks")!.description).toContain("leave out undated tasks");
    expect(property("create_task", "listId").description).toContain("list_tasks with `lists: true`");
    expect(property("create_task", "repeat").description).toContain("Every weekday: FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR");
    expect(property("list_holidays", "from").description).toContain("YYYY-MM-DD");
    expect(property("list_holidays", "to").description).toContain("YYYY-MM-DD");
  });

  it("publishes the reminder of update_task as anyOf a date-time and null, not a type list", () => {
    expect(property("update_task", "reminder")).toEqual({
      description: expect.stringContaining("null"),
      anyOf: [{ type: "string", format: "date-time" }, { type: "null" }],
    });
  });
});

/** The Inspector's `--strict` lint (its core/json/schemaLint.ts): the rules our schemas could break. */
const CONSTRAINING = new Set(
  "type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format maxItems minItems uniqueItems maxProperties minProperties required allOf anyOf oneOf not items prefixItems contains properties patternProperties additionalProperties propertyNames $ref".split(
    " ",
  ),
);
const BOOLEAN_ALLOWED = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
]);
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SINGLE = new Set(["items", "contains", "not", "propertyNames", "if", "then", "else", ...BOOLEAN_ALLOWED]);

function lint(node: unknown, path: string, keyword: string | undefined, findings: string[]): void {
  if (typeof node === "boolean") {
    if (!keyword || !BOOLEAN_ALLOWED.has(keyword)) findings.push(`${path}: bare ${node}`);
    return;
  }
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type)) findings.push(`${path}: type list ${JSON.stringify(schema.type)}`);
  if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) findings.push(`${path}: remote $ref`);
  if (keyword !== "not" && !Object.keys(schema).some((k) => CONSTRAINING.has(k)))
    findings.push(`${path}: constrains nothing`);
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS.has(key) && value && typeof value === "object")
      for (const [name, child] of Object.entries(value)) lint(child, `${path}.${key}.${name}`, key, findings);
    else if (LISTS.has(key) && Array.isArray(value))
      for (const [i, child] of value.entries()) lint(child, `${path}.${key}[${i}]`, key, findings);
    else if (SINGLE.has(key)) lint(value, `${path}.${key}`, key, findings);
  }
}

describe("tools/list under the Inspector's strict portability lint", () => {
  it("has no findings in any tool's input or output schema", () => {
    const findings: string[] = [];
    for (const tool of tools) {
      lint(tool.inputSchema, `${tool.name}.inputSchema`, undefined, findings);
      lint(tool.outputSchema, `${tool.name}.outputSchema`, undefined, findings);
    }
    expect(findings).toEqual([]);
  });
});
