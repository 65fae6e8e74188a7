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
 *   Task's identity (`id`, `title`). A client holds every result to these (the 1.x SDK with Ajv); hosts
 *   do not show them to the model, which reads the result itself, so the members of nested objects
 *   (a task's other fields, a pack, an event) are left to the descriptions and the docs: `events` is
 *   published as an array.
 *   Optional properties (`next`, `nextCursor`, a task's `due`) are named in the tool's description;
 *   objects stay open.
 * - A schema with a registry id (`Task`) is written once per tool under `$defs` and referenced when
 *   the tool uses it twice, else where it is used.
 * - An array argument whose items repeat the tool's own arguments (create_task's `subtasks`) publishes
 *   them by name and type: each description and limit is written once.
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

/** What a client keys a result's task on; the rest of a Task is described in docs/api.md. */
const IDENTITY = ["id", "title"];

/**
 * An output's properties other than Tasks (`$ref`) keep their type only: `events` is an array. A Task
 * keeps its identity, `id` and `title`, required and typed.
 */
function shallowOutput(json: JsonSchema): void {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, node] of Object.entries(properties)) {
    const items = node.items as JsonSchema | undefined;
    if (!node.$ref && !items?.$ref) properties[name] = { type: node.type };
  }
  for (const def of Object.values((json.$defs ?? {}) as Record<string, JsonSchema>)) {
    const members = (def.properties ?? {}) as Record<string, JsonSchema>;
    def.properties = Object.fromEntries(Object.entries(members).filter(([name]) => IDENTITY.includes(name)));
    def.required = ((def.required as string[] | undefined) ?? []).filter((name) => IDENTITY.includes(name));
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

/** A node's types alone: `string`, an array of `string`, a string or null. */
function typesOf(node: JsonSchema): JsonSchema {
  if (node.anyOf) return { anyOf: (node.anyOf as JsonSchema[]).map(typesOf) };
  const items = node.items as JsonSchema | undefined;
  return { type: node.type, ...(items ? { items: typesOf(items) } : {}) };
}

/**
 * The items of an array argument that repeat the tool's own arguments (create_task's `subtasks` take
 * the task's fields) publish those by name and type: their descriptions, limits and formats are
 * written once, at the top, and the array's description says so.
 */
function typesWhereRepeated(json: JsonSchema): void {
  const top = (json.properties ?? {}) as Record<string, JsonSchema>;
  for (const property of Object.values(top)) {
    const itemProperties = (property.items as JsonSchema | undefined)?.properties as Record<string, JsonSchema>;
    for (const [name, node] of Object.entries(itemProperties ?? {}))
      if (name in top) itemProperties[name] = typesOf(node);
  }
}

/**
 * A definition referred to once is written where it is used: `$defs` pays when a schema is used
 * twice, and an output's optional properties (a change's `next`) are not published.
 */
function inlineSingleUse(json: JsonSchema): void {
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return;
  const text = JSON.stringify({ ...json, $defs: undefined });
  const uses = (name: string) => text.split(`"#/$defs/${name}"`).length - 1;
  const inline = (node: unknown): unknown => {
    if (!node || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map(inline);
    const ref = (node as JsonSchema).$ref as string | undefined;
    const name = ref?.startsWith("#/$defs/") ? ref.slice(8) : undefined;
    if (name && defs[name] && uses(name) === 1) return inline(defs[name]);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value)]));
  };
  const single = Object.keys(defs).filter((name) => uses(name) === 1);
  Object.assign(json, inline({ ...json, $defs: undefined }));
  for (const name of single) delete defs[name];
  json.$defs = Object.keys(defs).length ? defs : undefined;
  if (!json.$defs) delete json.$defs;
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
  if (io === "input") typesWhereRepeated(json);
  if (io === "output") shallowOutput(json);
  dropUnusedDefs(json);
  inlineSingleUse(json);
  return json;
}
