// JSON Schema as the few words a reader needs: the type, its limits and its default, and the fields of an
// object one per line. Used by skill-render.mjs for SKILL.md's reference; pure functions, no I/O.

/** `#/components/schemas/Task` and `#/$defs/Task` are both "Task". */
export const refName = (ref) => ref.slice(ref.lastIndexOf("/") + 1);

/** zod writes `z.number().int()` with the safe-integer bounds: no limit a reader needs to see. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** Markdown inline code that survives backticks inside (`` `a` `` for a value holding one). */
const code = (value) => (String(value).includes("`") ? `\`\` ${value} \`\`` : `\`${value}\``);

function range(min, max, unit) {
  const low = min === undefined || min <= -SAFE ? undefined : min;
  const high = max === undefined || max >= SAFE ? undefined : max;
  if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
  if (high !== undefined) return `at most ${high}${unit}`;
  if (low !== undefined && low > 0) return `at least ${low}${unit}`;
  return undefined;
}

function baseType(schema) {
  const types = [schema.type].flat().filter(Boolean);
  const words = [];
  for (const type of types) {
    if (type === "string") words.push(schema.format ?? "string");
    else if (type === "array") words.push(schema.items ? `array of ${typeText(schema.items)}` : "array");
    else words.push(type);
  }
  return words.join(" or ");
}

/** `integer, 1 to 200, default 50`; `date or date-time`; `one of \`a\`, \`b\``; `array of Task`. */
export function typeText(schema) {
  if (!schema || typeof schema !== "object") return "any";
  if (schema.$ref) return refName(schema.$ref);
  const members = schema.anyOf ?? schema.oneOf;
  if (members) {
    const words = [...new Set(members.map(typeText))].join(" or ");
    return schema.default === undefined ? words : `${words}, default ${JSON.stringify(schema.default)}`;
  }
  const parts = [];
  if (schema.const !== undefined) parts.push(code(JSON.stringify(schema.const)));
  else if (schema.enum?.length === 1) parts.push(code(JSON.stringify(schema.enum[0])));
  else if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  else parts.push(baseType(schema) || "any");
  const limits =
    range(schema.minLength, schema.maxLength, " characters") ??
    range(schema.minimum, schema.maximum, "") ??
    range(schema.minItems, schema.maxItems, " items");
  if (limits) parts.push(limits);
  if (schema.pattern && !schema.format && !schema.enum) parts.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

/** One line of prose: a table cell or a list item holds no line break, and a `|` would end the cell. */
export const oneLine = (text) => (text ?? "").replace(/\s*\n\s*/g, " ").trim();
export const cell = (text) => oneLine(text).replaceAll("|", "\\|");

/** The object an inline or referenced schema stands for, when it has fields of its own. */
function objectOf(schema) {
  const target = schema?.$ref ? undefined : schema;
  if (target?.properties) return target;
  if (target?.type === "array" && target.items && !target.items.$ref && target.items.properties) return target.items;
  return undefined;
}

/**
 * The fields of an object schema, inline objects flattened into dotted names (`meta.count`,
 * `errors[].path`); a referenced schema (`Task`) stays one field named by its type.
 */
export function fieldsOf(schema, resolve, prefix = "") {
  const object = schema.$ref ? resolve(schema.$ref) : schema;
  const required = new Set(object.required ?? []);
  const fields = [];
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    const path = `${prefix}${name}`;
    fields.push({
      name: path,
      type: typeText(property),
      required: required.has(name),
      description: oneLine(property.description),
    });
    const inner = objectOf(property);
    if (inner) fields.push(...fieldsOf(inner, resolve, `${path}${inner === property ? "." : "[]."}`));
  }
  return fields;
}

/**
 * What a reader must know of a field's presence: an input marks what it must send ("required"), an output
 * what may be absent ("optional").
 */
const presence = (field, io) =>
  io === "input" ? (field.required ? ", required" : "") : field.required ? "" : ", optional";

/** `- \`name\` (type, required): description` lines. */
export const fieldList = (fields, io) =>
  fields.map((f) => `- ${code(f.name)} (${f.type}${presence(f, io)})${f.description ? `: ${f.description}` : ""}`);

/** A Markdown table of an answer's fields: name, type (with "optional"), description. */
export const fieldTable = (fields) => [
  "| Field | Type | Description |",
  "|---|---|---|",
  ...fields.map((f) => `| ${code(f.name)} | ${cell(f.type)}${presence(f, "output")} | ${cell(f.description)} |`),
];
