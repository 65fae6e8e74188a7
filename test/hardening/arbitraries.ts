import fc from "fast-check";
import * as z from "zod";

/**
 * fast-check generators built from our zod schemas. zod-fast-check does not support zod 4, so
 * the schema goes through zod's own JSON Schema export and the generators are built from that:
 * valid values first, then one mutation that makes them invalid or pushes an edge.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  const?: Json;
  enum?: Json[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  example?: Json;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: Json;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const resolve = (s: JsonSchema): JsonSchema => {
    if (s.$ref) return resolve(root.$defs![s.$ref.replace("#/$defs/", "")]!);
    const out: JsonSchema = { ...s };
    if (s.properties)
      out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, resolve(v)]));
    if (s.anyOf) out.anyOf = s.anyOf.map(resolve);
    return out;
  };
  return resolve(root);
}

const isoDate = fc.date({
  min: new Date("1900-01-01T00:00:00Z"),
  max: new Date("2199-12-31T00:00:00Z"),
  noInvalidDate: true,
});
const offsets = fc.constantFrom("Z", "+00:00", "+05:30", "-12:00", "+14:00");

/** Values the schema accepts (mostly: refinements such as RRULE grammar are not in JSON Schema). */
export function validOf(s: JsonSchema): fc.Arbitrary<Json> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map(validOf));
  switch (s.type) {
    case "object": {
      const props = s.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validOf(v)]));
      return fc.record(model, { requiredKeys: (s.required ?? []) as never[] }) as fc.Arbitrary<Json>;
    }
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "string": {
      if (s.format === "date") return isoDate.map((d) => d.toISOString().slice(0, 10));
      if (s.format === "date-time") return fc.tuple(isoDate, offsets).map(([d, o]) => d.toISOString().slice(0, 19) + o);
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      const text = fc.string({
        unit: "grapheme",
        minLength: Math.max(1, s.minLength ?? 0),
        maxLength: Math.min(s.maxLength ?? 40, 40),
      });
      return typeof s.example === "string" ? fc.oneof(fc.constant(s.example), text) : text;
    }
    default:
      return anyJson;
  }
}

/** Unicode that breaks naive code: lone surrogates, NUL, BOM, bidi overrides, combining floods, astral emoji. */
export const unicodeEdge = fc.constantFrom(
  "\ud800",
  "\udfff",
  "a\ud83d",
  "\u0000",
  "\ufeffBOM",
  "\u202eevil\u202c",
  "\u200b\u200d\u2060",
  `e${"\u0301".repeat(600)}`,
  "👩‍👩‍👧‍👦".repeat(130),
  "\uffff\ufffe",
  "ﷺ".repeat(10),
  "  \t\n  ",
  "<script>alert(1)</script>",
  "'; DROP TABLE tasks; --",
  "%00%2e%2e%2f",
  ["$", "{jndi:ldap://x}"].join(""),
);

/**
 * Repeat rules that can never occur: each must be refused with 400 (rrule.ts). Completing one used
 * to search until the year 9999, period by period: up to 1.1 s of CPU (`5MO` on the 1st).
 */
export const NEVER_RULES = [
  "FREQ=MONTHLY;BYDAY=5MO;BYMONTHDAY=1",
  "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
  "FREQ=YEARLY;BYMONTH=1;BYDAY=20MO",
  "FREQ=YEARLY;BYDAY=1MO;BYMONTHDAY=8",
  "FREQ=YEARLY;BYDAY=53MO;BYMONTHDAY=1",
  "FREQ=MONTHLY;BYDAY=-5FR;BYMONTHDAY=28,29,30,31",
  "FREQ=YEARLY;BYMONTH=2;BYDAY=5MO;BYMONTHDAY=1,2,3",
  "FREQ=WEEKLY;BYMONTH=4,6,9,11;BYMONTHDAY=31",
  "FREQ=DAILY;INTERVAL=9999;BYMONTH=2;BYMONTHDAY=-30",
];

/**
 * The most expensive rules that are accepted, each with the `due` that makes it so: no further day
 * from that start (the INTERVAL never meets the BY parts, or the default day does not exist), a day
 * decades away, or a BYDAY that rrule read as never. Each must complete cheaply (occurrences.ts
 * walks at most one 400-year cycle of days).
 */
export const WORST_ACCEPTED_RULES = [
  { due: "1900-01-02", repeat: "FREQ=DAILY;INTERVAL=14;BYDAY=MO" },
  { due: "1900-01-02T23:59:59-12:00", repeat: "FREQ=DAILY;INTERVAL=7;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;UNTIL=99991231" },
  { due: "1900-01-01", repeat: "FREQ=WEEKLY;INTERVAL=9999;BYDAY=SU" },
  { due: "1900-01-01", repeat: "FREQ=MONTHLY;INTERVAL=2;BYMONTH=2" },
  { due: "1900-01-01", repeat: "FREQ=MONTHLY;BYDAY=MO,1TU" },
  { due: "1900-01-31T09:00:00+01:00", repeat: "FREQ=YEARLY;BYMONTH=2" },
  { due: "1901-01-01", repeat: "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29" },
  { due: "1900-01-01", repeat: "FREQ=YEARLY;INTERVAL=9999" },
  { due: "2045-03-01", repeat: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;COUNT=9999" },
  { due: "9999-12-30", repeat: "FREQ=DAILY;INTERVAL=2" },
];

/** Repeat values to fuzz with: the rules above, never-occurring and worst accepted alike. */
export const costlyRepeat = fc.constantFrom(...NEVER_RULES, ...WORST_ACCEPTED_RULES.map((r) => r.repeat));

/** Numbers at the edges of what JSON, JavaScript and SQLite represent. */
export const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  2 ** 64,
  5e-324,
  -0,
  0.1 + 0.2,
  1e21,
  1.2345678901234568e29,
);

export const pollutionKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "__defineGetter__",
);

const anyJson: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hugeNumber,
  fc.integer(),
  fc.string({ maxLength: 20 }),
  unicodeEdge,
  fc.constant([] as Json[]),
  fc.constant({} as Json),
  fc.constant({ __proto__: null, polluted: true } as unknown as Json),
  fc.array(fc.integer(), { maxLength: 3 }),
);

/** A string one code point longer than `maxLength`, in one of a few alphabets. */
const overlong = (max: number) => fc.constantFrom("x", "é", "😀", "\u0301").map((c) => c.repeat(max + 1));

/** Sets `key` as an own property, even `__proto__`, so JSON.stringify sends it. */
function withKey(target: Record<string, Json>, key: string, value: Json): Record<string, Json> {
  const out = { ...target };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

/**
 * One invalid or edge mutation of a valid object: a wrong-typed, overlong or unicode-edge
 * field, a missing required field, an unknown or prototype-polluting key, or a body that is
 * not an object at all.
 */
export function mutatedOf(s: JsonSchema): fc.Arbitrary<Json> {
  const base = validOf(s) as fc.Arbitrary<Record<string, Json>>;
  const keys = Object.keys(s.properties ?? {});
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant("x");
  const stringKeys = keys.filter((k) => {
    const p = s.properties![k]!;
    return p.type === "string" || p.anyOf?.some((a) => a.type === "string");
  });
  const limited = keys.filter((k) => s.properties![k]!.maxLength !== undefined);
  const mutations: fc.Arbitrary<Json>[] = [
    fc.tuple(base, key, anyJson).map(([o, k, v]) => withKey(o, k, v)),
    fc.tuple(base, pollutionKey, anyJson).map(([o, k, v]) => withKey(o, k, v)),
    fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }), anyJson).map(([o, k, v]) => withKey(o, k, v)),
    fc.tuple(base, key, hugeNumber).map(([o, k, v]) => withKey(o, k, v)),
    base.map((o) => {
      const out = { ...o };
      for (const r of s.required ?? []) delete out[r];
      return out;
    }),
    anyJson,
  ];
  if (stringKeys.length) {
    mutations.push(fc.tuple(base, fc.constantFrom(...stringKeys), unicodeEdge).map(([o, k, v]) => withKey(o, k, v)));
  }
  if (keys.includes("repeat")) {
    mutations.push(fc.tuple(base, costlyRepeat).map(([o, r]) => withKey(o, "repeat", r)));
  }
  if (limited.length) {
    const field = fc.constantFrom(...limited);
    mutations.push(
      fc.tuple(base, field).chain(([o, k]) => overlong(s.properties![k]!.maxLength!).map((v) => withKey(o, k, v))),
    );
  }
  // Nested pollution: {"constructor": {"prototype": {...}}} and {"__proto__": {"isAdmin": true}}.
  mutations.push(base.map((o) => withKey(o, "__proto__", { isAdmin: true, completed: true })));
  mutations.push(base.map((o) => withKey(o, "constructor", { prototype: { polluted: true } })));
  return fc.oneof(...mutations);
}

/** Raw request body text: mutated JSON, valid edge JSON, or text that is not JSON at all. */
export function bodyTextOf(s: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: mutatedOf(s).map((v) => JSON.stringify(v) ?? "null") },
    { weight: 2, arbitrary: validOf(s).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "",
          "{",
          '{"title":',
          "[",
          "nul",
          '{"title":"x",}',
          "{'title':'x'}",
          "\u0000",
          `${"[".repeat(5000)}${"]".repeat(5000)}`,
        ),
        fc.string({ maxLength: 30 }),
        validOf(s).map((v) => `${JSON.stringify(v)} trailing`),
      ),
    },
  );
}

/** Path segments: encoded unicode, traversal, overlong, pollution names, other shapes of ids. */
export const pathId = fc.oneof(
  fc.uuid().map((u) => u),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  unicodeEdge.map((u) => encodeURIComponent(u.replace(/[\ud800-\udfff]/g, "?"))),
  pollutionKey,
  fc.constantFrom(
    "..",
    "%2e%2e",
    "%2F",
    "%00",
    "a%20b",
    "x".repeat(101),
    "x".repeat(5000),
    "-1",
    "0",
    "1e309",
    "null",
    "undefined",
    "NaN",
  ),
);

/** Visible ASCII, tab and space: workerd warns on every non-ASCII header value, which would flood the log. */
const headerChars = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

export interface HeaderCase {
  authorization?: string;
  contentType?: string;
  idempotencyKey?: string;
  ifMatch?: string;
}

/** The four request headers the task API reads, each missing, malformed, or at an edge. */
export const headerCase = (validKey: string): fc.Arbitrary<HeaderCase> =>
  fc.record(
    {
      authorization: fc.oneof(
        fc.constant(`Bearer ${validKey}`),
        fc.constantFrom(
          "",
          "Bearer",
          "Bearer ",
          `bearer ${validKey}`,
          `Bearer  ${validKey}`,
          `Bearer ${validKey} extra`,
          `Basic ${btoa("a:b")}`,
          `Bearer ${validKey.slice(0, -1)}`,
          `Bearer ${"A".repeat(5000)}`,
        ),
        headerChars.map((v) => `Bearer ${v}`),
      ),
      contentType: fc.oneof(
        fc.constantFrom(
          "application/json",
          "application/json; charset=utf-8",
          "application/merge-patch+json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "APPLICATION/JSON",
          "application/jsonx",
          "",
        ),
        headerChars,
      ),
      idempotencyKey: fc.oneof(
        fc.uuid(),
        fc.constantFrom("", " ", "x".repeat(255), "x".repeat(256), "a\tb", "\u00e9"),
        headerChars,
      ),
      ifMatch: fc.oneof(
        fc.constantFrom("*", '"x"', 'W/"x"', '"a", "b"', "", `"${"x".repeat(3000)}"`, "garbage"),
        headerChars,
      ),
    },
    { requiredKeys: [] },
  );

/** Query strings for GET /tasks: known parameters with edge values, repeats, unknown and pollution keys. */
export const taskQuery = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("since", "completed", "listId", "limit", "cursor"),
        pollutionKey,
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.constantFrom(
          "",
          "true",
          "false",
          "TRUE",
          "1",
          "0",
          "-1",
          "501",
          "1e3",
          "NaN",
          "Infinity",
          "2026-01-01T00:00:00Z",
          "2026-13-45",
          "9".repeat(400),
        ),
        hugeNumber.map(String),
        fc.string({ maxLength: 20 }),
        unicodeEdge,
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "\ufffd"))}`)
      .join("&"),
  );
