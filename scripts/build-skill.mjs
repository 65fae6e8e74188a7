// Writes SKILL.md and references/REFERENCE.md (both committed, served byte for byte at /SKILL.md and
// /references/REFERENCE.md) from docs/skill/template.md, docs/skill/examples.md, the OpenAPI document and
// the MCP tool descriptors, so that a new field, operation, tool or error code reaches the skill without a
// hand edit. No server runs: as in openapi-dump.mjs, the sources are bundled for Node with esbuild (the
// Worker's module resolution) and asked directly. Plain Node ESM for Node 20 and 22.
//
// Usage: node scripts/build-skill.mjs          writes both files (npm run skill)
//        node scripts/build-skill.mjs --check  fails, writing nothing, when either file differs (npm run skill:check)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_PATH, renderSkill } from "./skill-render.mjs";
import { contactEmail, importWorkerSources } from "./worker-sources.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The stand-in origin SKILL.md writes every URL with (it says to replace it with the serving origin).
const ORIGIN = "https://todo.example.com";

/** The sources, bundled once: the /api/v1 app (for its document), the tools, the problem types. */
const ENTRY = `
export { createV1App } from "./src/http/v1/app.ts";
export { tools } from "./src/mcp/tools/index.ts";
export { publishedSchema } from "./src/mcp/published-schema.ts";
export { problemTypes } from "./src/http/problem-types.ts";
export { statusOfCode } from "./src/transport/problem.ts";
export { errorCodes } from "./src/domain/errors.ts";
export { toJSONSchema } from "zod";
`;

const loadSources = () => importWorkerSources(ENTRY, "skill-sources");

async function generate() {
  const sources = await loadSources();
  const contact = contactEmail();
  const res = await sources.createV1App().request(`${ORIGIN}/openapi.json`, {}, { CONTACT_EMAIL: contact });
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}: ${await res.text()}`);
  const tools = sources.tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    annotations: tool.annotations,
    // The arguments as tools/list publishes them; the result in full, optional fields included.
    input: sources.publishedSchema(tool.input, "input"),
    output: sources.toJSONSchema(tool.output, { target: "draft-2020-12", io: "output", unrepresentable: "any" }),
  }));
  const problems = Object.fromEntries(
    Object.entries(sources.problemTypes).map(([code, { action }]) => [
      code,
      { status: sources.statusOfCode(code), action },
    ]),
  );
  return renderSkill({
    template: readFileSync(join(root, "docs", "skill", "template.md"), "utf8"),
    examplesText: readFileSync(join(root, "docs", "skill", "examples.md"), "utf8"),
    document: await res.json(),
    tools,
    problems,
    errorCodes: [...sources.errorCodes],
    origin: ORIGIN,
  });
}

const { skill, reference } = await generate();
const outputs = [
  ["SKILL.md", skill],
  [REFERENCE_PATH, reference],
];
const read = (file) => {
  try {
    return readFileSync(join(root, file), "utf8");
  } catch {
    return undefined;
  }
};

if (process.argv.includes("--check")) {
  const stale = outputs.filter(([file, text]) => read(file) !== text).map(([file]) => file);
  if (stale.length) {
    console.error(`build-skill: stale ${stale.join(" and ")}, not what the sources give now: run npm run skill`);
    process.exit(1);
  }
  console.log("build-skill: SKILL.md and references/REFERENCE.md are up to date");
} else {
  for (const [file, text] of outputs) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
    console.log(`build-skill: ${file}, ${text.split("\n").length - 1} lines`);
  }
}
