import * as z from "zod";

/**
 * The JSON Schemas that tools/list publishes, derived from the zod schemas that validate.
 *
 * A model reads every tool's schemas on every conversation, so what is published is trimmed to what
 * a model or a client uses (test/mcp/budget.test.ts holds tools/list to its token budget). Nothing
 * is loosened where it counts: server.ts validates every argument with the full zod schema.
 * - Inputs keep types, descriptions, limits and formats. Dropped: examples, a `pattern` next to a
 *   `format` (zod's date regexes are ~100 tokens each), and the members of a union of strings
 *   (`due`: a date or a date-time), whose description says what it takes.
 * - Outputs publish what every result guarantees: the required properties and their types, and a
 *   Task's required fields. A client holds every result to these (the 1.x SDK with Ajv); hosts do not
 *   show them to the model, which reads the result itself, so the members of other nested objects
 *   (a pack, an event) are left to the descriptions and the docs: `events` is published as an array.
 *   Optional properties (`next`, `nextCursor`, a task's `due`) are named in the tool's description;
 *   objects stay open.
 * - A schema with a registry id (`Task`) is written once per tool under `$defs` and referenced.
 * - A description is written once per schema: the same words again further down are dropped.
 */
export type JsonSchema = Record<string, unknown>;
export type SchemaIo = "input" | "output";

/** What an output schema drops: everything but the shape. */
const OUTPUT_ONLY_SHAPE = [
  "description",
  "pattern",
  "format",
  "enum",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "title",
];

function trim(schema: JsonSchema, io: SchemaIo): void {
  delete schema.examples;
  delete schema.example;
  if (schema.format) delete schema.pattern;
  if (io === "output") {
    for (const key of OUTPUT_ONLY_SHAPE) delete schema[key];
    if (schema.additionalProperties === false) delete schema.additionalProperties;
    const properties = schema.properties as JsonSchema | undefined;
    const required = (schema.required as string[] | undefined) ?? [];
    if (properties)
      schema.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => required.includes(name)));
  }
}

/**
 * A union of strings is published as one string whose description says what it takes: `due` is
 * "a date or a date-time", and in a patch `""` clears it. Only a length limit shared by every
 * member that is not `""` survives (a pattern would refuse the `""`). A nullable string stays
 * `anyOf` a string and null: a type list (`["string", "null"]`) is legal, but clients that map tool
 * schemas onto one-type dialects (Gemini's) reject it, and the Inspector's strict check warns.
 */
function simplifyUnions(schema: unknown): void {
  if (!schema || typeof schema !== "object") return;
  for (const value of Object.values(schema)) simplifyUnions(value);
  const node = schema as JsonSchema;
  const members = (node.anyOf as JsonSchema[] | undefined)?.flatMap(
    (m) => (m.anyOf as JsonSchema[] | undefined) ?? [m],
  );
  if (!members || !node.description) return;
  const nullable = members.some((m) => m.type === "null");
  const strings = members.filter((m) => m.type === "string");
  if (strings.length !== members.length - (nullable ? 1 : 0)) return;
  const string: JsonSchema = { type: "string" };
  const values = strings.filter((m) => m.const !== "");
  const limits = values.map((m) => m.maxLength as number | undefined);
  if (limits.every((n) => n !== undefined)) string.maxLength = Math.max(...limits);
  const formats = new Set(values.map((m) => m.format));
  if (formats.size === 1 && values[0]!.format) string.format = values[0]!.format;
  delete node.anyOf;
  if (nullable) node.anyOf = [string, { type: "null" }];
  else Object.assign(node, string);
}

/** An output's properties other than Tasks (`$ref`) keep their type only: `events` is an array. */
function shallowOutput(json: JsonSchema): void {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, node] of Object.entries(properties)) {
    const items = node.items as JsonSchema | undefined;
    if (!node.$ref && !items?.$ref) properties[name] = { type: node.type };
  }
}

/** Definitions that only dropped properties referred to (`deleted`'s Tombstone in an output) go too. */
function dropUnusedDefs(json: JsonSchema): void {
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return;
  const used = new Set<string>();
  const visit = (node: unknown) => {
    for (const [, name] of JSON.stringify(node).matchAll(/"#\/\$defs\/([^"]+)"/g)) {
      if (!used.has(name!)) {
        used.add(name!);
        visit(defs[name!]);
      }
    }
  };
  visit({ ...json, $defs: undefined });
  for (const name of Object.keys(defs)) if (!used.has(name)) delete defs[name];
  if (!used.size) delete json.$defs;
}

/**
 * A description is published once per schema: a nested property that says again what an earlier one
 * said (create_task's `subtasks` items take the task's own fields) keeps its type and limits, and the
 * description above it says where to read. JSON key order is document order, so the first one stays.
 */
function describeOnce(node: unknown, seen = new Set<string>()): void {
  if (!node || typeof node !== "object") return;
  const schema = node as JsonSchema;
  if (typeof schema.description === "string") {
    if (seen.has(schema.description)) delete schema.description;
    else seen.add(schema.description);
  }
  for (const value of Object.values(schema)) describeOnce(value, seen);
}

export function publishedSchema(schema: z.ZodType, io: SchemaIo): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    override: ({ jsonSchema }) => trim(jsonSchema as JsonSchema, io),
  }) as JsonSchema;
  delete json.$schema;
  simplifyUnions(json);
  describeOnce(json);
  if (io === "output") shallowOutput(json);
  dropUnusedDefs(json);
  return json;
}
