import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { REFRESH_GRACE_SECONDS } from "../../src/control/connections/refresh-tokens";
import { errorCodes } from "../../src/domain/errors";
import { call, json, maxUser } from "../helpers";
import { servedSkill } from "./served-skill";

/**
 * SKILL.md, the reference it links and llms.txt against the running Worker: the tools come from `tools/list`
 * on /mcp and the operations from the OpenAPI document it serves, so a renamed, added or removed tool or
 * operation fails here until the files say the same. SKILL.md and its reference are generated
 * (scripts/build-skill.mjs; test/scripts/build-skill.test.mjs fails when they are stale): these tests hold
 * what the generator and the hand-written parts (docs/skill/) give to what the service does.
 */

const ORIGIN = "https://todo.example.com";
const METHODS = ["get", "put", "post", "delete", "patch"];

interface Operation {
  method: string;
  path: string;
  /** Names of its `in: query` parameters. */
  query: Set<string>;
}

let skill: string;
/** references/REFERENCE.md, as SKILL.md's link reaches it. */
let reference: string;
/** SKILL.md and its reference: what an agent reads of the skill, in the order it reads it. */
let skillFiles: string;
let llms: string;
let tools: Set<string>;
/** Each tool's argument names, from its published input schema. */
let toolArguments: Map<string, Set<string>>;
let operations: Map<string, Operation>;
let pathPatterns: RegExp[];
let propertyNames: Set<string>;

/** `/api/v1/tasks/{id}` as a pattern that also matches concrete paths (`/api/v1/tasks/0193…`). */
const pathPattern = (template: string) =>
  new RegExp(
    `^${template
      .replace(/\/$/, "")
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}/?$`,
  );

async function listTools(): Promise<Map<string, Set<string>>> {
  const { key } = await maxUser("entry-points");
  const res = await call("/mcp", {
    method: "POST",
    token: key,
    headers: { Accept: "application/json, text/event-stream" },
    body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const isStream = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  const payload = isStream
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5))
        .at(-1)!
    : text;
  const listed: { name: string; inputSchema: { properties?: object } }[] = JSON.parse(payload).result.tools;
  return new Map(listed.map((t) => [t.name, new Set(Object.keys(t.inputSchema.properties ?? {}))]));
}

function collectPropertyNames(node: unknown, into: Set<string>) {
  if (Array.isArray(node)) for (const item of node) collectPropertyNames(item, into);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && value && typeof value === "object")
        for (const name of Object.keys(value)) into.add(name);
      if (key === "parameters" && Array.isArray(value)) for (const p of value) into.add(p.name);
      collectPropertyNames(value, into);
    }
  }
}

beforeAll(async () => {
  ({ skill, reference } = await servedSkill());
  skillFiles = `${skill}\n${reference}`;
  llms = await (await call("/llms.txt")).text();
  toolArguments = await listTools();
  tools = new Set(toolArguments.keys());

  const doc = await json(await call("/api/v1/openapi.json"));
  operations = new Map();
  for (const [path, item] of Object.entries<
    Record<string, { operationId: string; parameters?: { name: string; in: string }[]; servers?: { url: string }[] }>
  >(doc.paths)) {
    for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
      const { operationId, parameters = [], servers } = item[method]!;
      const query = new Set(parameters.filter((p) => p.in === "query").map((p) => p.name));
      // An operation with its own `servers` (the task feed) is served there, not under /api/v1.
      const prefix = servers ? new URL(servers[0]!.url, `${ORIGIN}/api/v1/`).pathname.replace(/\/$/, "") : "/api/v1";
      operations.set(operationId, { method: method.toUpperCase(), path: `${prefix}${path}`, query });
    }
  }
  pathPatterns = [...operations.values()].map((op) => pathPattern(op.path));
  propertyNames = new Set();
  collectPropertyNames(doc, propertyNames);
});

/** Words shaped like tool names (`verb_noun`), minus error codes (`list_exists`, `list_not_found`). */
const toolMentions = (text: string) =>
  new Set(
    (
      text.match(/\b(?:list|get|create|update|complete|delete|remove|add|search|find|set)_[a-z]+(?:_[a-z]+)*\b/g) ?? []
    ).filter((word) => !(errorCodes as readonly string[]).includes(word)),
  );

/** Words shaped like operationIds (`verbNoun`), minus field and parameter names (`listId`). */
const operationMentions = (text: string) =>
  new Set(
    (text.match(/\b(?:get|list|create|update|delete|complete|remove|add|search)(?:[A-Z][a-z]+)+\b/g) ?? []).filter(
      (word) => !propertyNames.has(word),
    ),
  );

/** `GET /api/v1/…` mentions and `https://todo.example.com/api/v1/…` URLs, without query strings. */
const apiPathMentions = (text: string) => {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:GET|PUT|POST|PATCH|DELETE) (\/api\/v1[^\s`"'?)]*)/g)) found.add(m[1]!);
  for (const m of text.matchAll(/https:\/\/todo\.example\.com(\/api\/v1[^\s`"'?)]*)/g)) found.add(m[1]!);
  return found;
};

/** The entry points that are not operations of the document. */
const NON_OPERATION_PATHS = new Set(["/api/v1/openapi.json", "/api/v1/docs"]);

describe("SKILL.md", () => {
  it("has Agent Skills frontmatter and a body under 500 lines", () => {
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(skill);
    expect(match).not.toBeNull();
    const fields: Record<string, string> = Object.fromEntries(
      match![1]!
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
    );
    const name = fields.name ?? "";
    const description = fields.description ?? "";
    expect(Object.keys(fields).sort()).toEqual(["description", "name"]);
    expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description).not.toMatch(/[<>]/);
    expect(description).toMatch(/Use it when/);
    expect(match![2]!.split("\n").length).toBeLessThan(500);
  });

  it("keeps its body within the Agent Skills budget: the details are in the reference it links", () => {
    // agentskills.io: "Keep your main SKILL.md under 500 lines" (above) and "< 5000 tokens recommended" for the
    // body, which an agent loads whole; the reference is loaded when a call needs it.
    const body = skill.slice(skill.indexOf("\n---\n") + 5);
    expect(countTokens(body)).toBeLessThanOrEqual(5000);
    expect(skill).toContain("](references/REFERENCE.md)");
    expect(reference).toContain("](../SKILL.md)");
  });

  it("has a reference whose contents name every tool and operation, one level from SKILL.md", () => {
    const contents = reference.split("\n## Contents\n")[1]?.split("\n## ")[0];
    expect(contents, "## Contents").toBeDefined();
    for (const name of [...tools, ...operations.keys()]) expect(contents, name).toContain(`\`${name}\``);
    // One level deep: the reference sends a reader back to SKILL.md and to no other file of the skill.
    expect([...reference.matchAll(/\]\((?!https?:|#)([^)]+)\)/g)].map((m) => m[1])).toEqual(["../SKILL.md"]);
  });

  it("has a section with an example for every MCP tool the server lists", () => {
    expect(tools.size).toBeGreaterThan(0);
    for (const tool of tools) {
      const section = skillFiles.split(`### \`${tool}\`\n`)[1]?.split("\n### ")[0];
      expect(section, `section for ${tool}`).toBeDefined();
      expect(section, `example for ${tool}`).toContain(`"name": "${tool}"`);
    }
  });

  it("has a section with method, path and example for every /api/v1 operation", () => {
    expect(operations.size).toBeGreaterThan(0);
    for (const [id, op] of operations) {
      const heading = `### \`${id}\`: \`${op.method} ${op.path}\`\n`;
      const section = skillFiles.split(heading)[1]?.split("\n### ")[0];
      expect(section, `section "${heading.trim()}"`).toBeDefined();
      expect(section, `example for ${id}`).toMatch(/```sh\ncurl /);
    }
  });

  it("names no tool, operation or API path the service does not have", () => {
    for (const text of [skill, reference, llms]) {
      for (const tool of toolMentions(text)) expect(tools, `tool ${tool}`).toContain(tool);
      for (const id of operationMentions(text)) expect([...operations.keys()], `operation ${id}`).toContain(id);
      for (const path of apiPathMentions(text)) {
        if (NON_OPERATION_PATHS.has(path)) continue;
        expect(
          pathPatterns.some((p) => p.test(path)),
          `path ${path}`,
        ).toBe(true);
      }
    }
  });

  it("names only query parameters and tool arguments the service reads", () => {
    // A REST section's `Query:` list and its example URLs; a tool section's `Input:` list and example.
    const sectionsOf = (text: string) => text.split("\n### ").slice(1);
    let checked = 0;
    for (const section of sectionsOf(skillFiles)) {
      const heading = section.slice(0, section.indexOf("\n"));
      const operation = operations.get(/^`(\w+)`: `/.exec(heading)?.[1] ?? "");
      const tool = toolArguments.get(/^`(\w+)`$/.exec(heading)?.[1] ?? "");
      const listed = (label: string) =>
        [
          ...(new RegExp(`${label}: ([^]*?)(?:\\. [A-Z]|\\.\\n|Result:)`).exec(section)?.[1] ?? "").matchAll(
            /`([a-z][A-Za-z]*)`/g,
          ),
        ].map((m) => m[1]!);
      if (operation) {
        const named = [...listed("Query"), ...[...section.matchAll(/[?&]([A-Za-z]+)=/g)].map((m) => m[1]!)];
        for (const name of named) expect(operation.query, `${heading}: query parameter ${name}`).toContain(name);
        checked += named.length;
      }
      if (tool) {
        const named = [
          ...listed("Input"),
          ...Object.keys(JSON.parse(/"arguments": (\{.*\})\}\}/.exec(section)?.[1] ?? "{}")),
        ];
        for (const name of named) expect(tool, `${heading}: argument ${name}`).toContain(name);
        checked += named.length;
      }
    }
    // Query strings anywhere, in every file: each belongs to the operation whose path it follows.
    for (const text of [skill, reference, llms]) {
      for (const [, path, query] of text.matchAll(/(\/api\/v1[^\s`"'?)]*)\?([^\s`"')]+)/g)) {
        const op = [...operations.values()].find((o) => pathPattern(o.path).test(path!));
        expect(op, `operation for ${path}`).toBeDefined();
        for (const name of new URLSearchParams(query).keys()) expect(op!.query, `${path}?${name}`).toContain(name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("states the rules an agent must follow", () => {
    expect(skill).toContain(`${ORIGIN}/mcp`);
    expect(skill).toMatch(/Prefer MCP/);
    expect(skill).toMatch(/Confirm before writing/);
    expect(skill).toMatch(/AI connection/);
    expect(skill).toMatch(/secret settings/);
    expect(skill).toMatch(/401 versus 403/);
    expect(skill).toMatch(/`since`/);
  });

  it("states how OAuth refresh tokens and connections behave, with the numbers the Worker uses", () => {
    expect(skill).toContain(`still works for ${REFRESH_GRACE_SECONDS} seconds`);
    expect(skill).toMatch(/keep only the newest/);
    expect(skill).toMatch(/disconnects the app \(reuse detection\)/);
    expect(skill).toMatch(/in flight is `invalid_grant`/);
    expect(skill).toMatch(/A password change disconnects every app/);
  });

  it("lists every error code the API documents", async () => {
    const doc = await json(await call("/api/v1/openapi.json"));
    const documented = new Set<string>();
    for (const item of Object.values<Record<string, any>>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
          if (Number(status) < 400) continue;
          for (const m of response.description.matchAll(/`([a-z_]+)`/g)) documented.add(m[1]);
        }
      }
    }
    expect(documented.size).toBeGreaterThan(0);
    for (const code of documented) expect(skill, code).toContain(`| \`${code}\` |`);
  });
});
