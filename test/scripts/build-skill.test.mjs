// SKILL.md's generator (scripts/build-skill.mjs, skill-render.mjs): the committed files are what it writes
// now, the hand-written part keeps its budget, and what it refuses. Node's test runner, as a person runs it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { renderSkill } from "../../scripts/skill-render.mjs";

const root = join(import.meta.dirname, "..", "..");

/** The hand-written lines of SKILL.md (docs/skill/template.md): the rest is one generated row per tool, operation or code. */
const TEMPLATE_LINES = 200;

const thing = {
  type: "object",
  description: "A thing.",
  required: ["id"],
  properties: { id: { type: "string", maxLength: 10, description: "Its id." } },
};

/** One tool, one operation, two codes: enough to see every part of both files. */
function sources() {
  return {
    template: [
      "---",
      "name: demo",
      "description: Demo things. Use it when testing.",
      "---",
      "",
      "# Demo",
      "",
      "Hand-written.",
      "",
      "<!-- skill:tools -->",
      "",
      "<!-- skill:operations -->",
      "",
      "<!-- skill:errors -->",
      "",
    ].join("\n"),
    examplesText: [
      "A note for maintainers.",
      "## MCP tools",
      "Call them.",
      "## `list_things`",
      "Notes on list_things.",
      "```json",
      '{"params": {"name": "list_things", "arguments": {}}}',
      "```",
      "## REST operations",
      "Base URL.",
      "## `listThings`",
      "```sh",
      "curl https://todo.example.com/api/v1/things",
      "```",
    ].join("\n"),
    document: {
      info: { title: "Demo API" },
      servers: [{ url: "https://todo.example.com/api/v1" }],
      paths: {
        "/things": {
          get: {
            operationId: "listThings",
            summary: "List things",
            description: "All things.",
            security: [{ bearerAuth: [] }],
            parameters: [{ name: "q", in: "query", description: "Words.", schema: { type: "string" } }],
            responses: {
              200: {
                description: "The things.",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
              },
              401: { description: "`unauthorized`" },
            },
          },
        },
      },
      components: { schemas: { Thing: structuredClone(thing) } },
    },
    tools: [
      {
        name: "list_things",
        title: "List things",
        description: "Lists things.",
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        input: { type: "object", properties: { query: { type: "string", description: "Words." } } },
        output: {
          type: "object",
          required: ["things"],
          properties: { things: { type: "array", items: { $ref: "#/$defs/Thing" } } },
          $defs: { Thing: structuredClone(thing) },
        },
      },
    ],
    problems: {
      unauthorized: { status: 401, action: "Get a new key." },
      insufficient_scope: { status: 403, action: "Allow changes." },
    },
    errorCodes: ["unauthorized", "insufficient_scope"],
    origin: "https://todo.example.com",
  };
}

describe("build-skill", () => {
  it("leaves SKILL.md and references/REFERENCE.md as the sources give them now (else: npm run skill)", () => {
    const run = spawnSync(process.execPath, ["scripts/build-skill.mjs", "--check"], { cwd: root, encoding: "utf8" });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  });

  it(`keeps the hand-written part of SKILL.md to at most ${TEMPLATE_LINES} lines`, () => {
    const lines = readFileSync(join(root, "docs", "skill", "template.md"), "utf8").split("\n").length - 1;
    assert.ok(lines <= TEMPLATE_LINES, `docs/skill/template.md: ${lines} lines`);
  });

  it("puts the template first, with the generated tables where its markers were, the same on every run", () => {
    const { skill, reference } = renderSkill(sources());
    assert.match(skill, /^---\nname: demo\n[\s\S]*\n---\n<!-- Generated [^\n]*-->\n\n# Demo\n\nHand-written\.\n/);
    assert.ok(skill.includes("| `list_things` | List things | `query` | read-only |"), skill);
    // One row per resource, its operations with their requests relative to the base.
    assert.ok(skill.includes("| `things` | `listThings` `GET /things` | API key |"), skill);
    // The codes the document names, and those only MCP answers.
    assert.ok(skill.includes("| 401 | `unauthorized` | Get a new key. |\n| 403 | `insufficient_scope` |"), skill);
    assert.doesNotMatch(skill, /<!-- skill:/);
    assert.ok(reference.includes("### `list_things`\n"), reference);
    assert.ok(reference.includes("### `listThings`: `GET /api/v1/things`\n"), reference);
    assert.ok(reference.includes("- `q` (string): Words."), reference);
    assert.ok(reference.includes("Notes on list_things."), reference);
    assert.ok(!reference.includes("A note for maintainers"), reference);
    assert.deepEqual(renderSkill(sources()), { skill, reference });
  });

  it("gives a new field to the reference with no hand-written change and no new line in SKILL.md", () => {
    const before = renderSkill(sources());
    const changed = sources();
    changed.document.components.schemas.Thing.properties.colour = { type: "string", description: "Its colour." };
    const after = renderSkill(changed);
    assert.equal(after.skill, before.skill);
    assert.ok(after.reference.includes("| `colour` | string, optional | Its colour. |"), after.reference);
  });

  it("refuses a tool or operation without its section or example, and a section that names neither", () => {
    const missing = sources();
    missing.examplesText = missing.examplesText.replace(/## `listThings`[\s\S]*$/, "## `listThingz`\n");
    assert.throws(
      () => renderSkill(missing),
      (error) =>
        error.message.includes("no section for the operation listThings") &&
        error.message.includes("a section names listThingz: no tool or operation"),
    );
    const bare = sources();
    bare.examplesText = bare.examplesText.replace(/```json[\s\S]*?```/, "");
    assert.throws(() => renderSkill(bare), /the section of list_things has no ```json example/);
  });

  it("refuses a template without each marker exactly once, and a code the service does not have", () => {
    const unmarked = sources();
    unmarked.template = unmarked.template.replace("<!-- skill:errors -->", "");
    assert.throws(() => renderSkill(unmarked), /<!-- skill:errors --> appears 0 times/);
    const unknown = sources();
    unknown.document.paths["/things"].get.responses[404] = { description: "`thing_missing`" };
    assert.throws(() => renderSkill(unknown), /names `thing_missing`, which is no error code/);
  });
});
