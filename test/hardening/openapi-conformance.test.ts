import { Validator } from "@cfworker/json-schema";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";

/**
 * A schema-driven conformance run, the Node counterpart of Schemathesis (issue 35, item 6): every
 * operation of the served OpenAPI document is called with inputs generated from its own schemas
 * (valid ones, and invalid ones mixed in), and every answer must be a status the document lists for
 * that operation, never 5xx, problem+json for 4xx, and a JSON body that matches the documented
 * schema. FUZZ_RUNS (vitest.config.ts) sets the runs per operation.
 */
const RUNS = Math.max(5, Math.floor((Number((env as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? "50") || 50) / 4));

type Schema = Record<string, any>;
type Document = { paths: Record<string, Record<string, any>>; components: Record<string, any> };

const resolve = (doc: Document, schema: Schema | undefined): Schema =>
  schema?.$ref
    ? resolve(
        doc,
        schema.$ref
          .split("/")
          .slice(1)
          .reduce((node: any, key: string) => node[key], doc),
      )
    : (schema ?? {});

/** Values a schema allows, from its type, enum, bounds and format (the keywords the document uses). */
function valid(doc: Document, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s: Schema) => valid(doc, s, depth)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return depth > 3
        ? fc.constant([])
        : fc.array(valid(doc, schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case "object": {
      if (depth > 3) return fc.constant({});
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const required = new Set<string>(schema.required ?? []);
      return fc.record(Object.fromEntries(props.map(([k, s]) => [k, valid(doc, s, depth + 1)])), {
        requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
      });
    }
    default: {
      if (schema.format === "date")
        return fc
          .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (schema.format === "date-time")
        return fc
          .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (schema.format === "uri") return fc.constantFrom("https://example.com/hook", "http://127.0.0.1:9/x");
      if (schema.pattern)
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 1000));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    }
  }
}

/** Anything at all, for the invalid half: wrong types, odd strings, huge numbers. */
const anything = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant("\u0000"),
  fc.constant("9".repeat(400)),
);
const input = (doc: Document, schema: Schema | undefined) =>
  fc.oneof({ weight: 3, arbitrary: valid(doc, schema) }, { weight: 1, arbitrary: anything });

describe("OpenAPI conformance", () => {
  it("answers every generated request with a documented status and a body its schema allows", {
    timeout: 600_000,
  }, async () => {
    const doc: Document = await json(await call("/api/v1/openapi.json"));
    const user = await maxUser("conformance");
    const task = await createTask(user.key, { title: "Seed", due: "2026-12-01" });
    const failures: string[] = [];
    let tried = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        const atRoot = operation.servers?.some((s: { url: string }) => s.url === "/");
        const params: Schema[] = operation.parameters ?? [];
        const pathParams = params.filter((p) => p.in === "path");
        const queryParams = params.filter((p) => p.in === "query");
        const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
        const request = fc.record({
          path: fc.record(
            Object.fromEntries(
              pathParams.map((p) => [
                p.name,
                // A path parameter is never empty (`/tasks/` is another operation's URL), nor "." or "..": URL
                // parsing removes those segments (RFC 3986 5.2.4), so no client can send them to this operation.
                fc
                  .oneof(input(doc, p.schema), fc.constantFrom(task.id, "de", "de-by"))
                  .filter((v) => !["", ".", ".."].includes(String(v))),
              ]),
            ),
          ),
          query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, input(doc, p.schema)])), {
            requiredKeys: [],
          }),
          body: bodySchema ? input(doc, bodySchema) : fc.constant(undefined),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ path: values, query, body }) => {
            tried++;
            let url = path.replace(/\{([^}]+)\}/g, (_, name) =>
              encodeURIComponent(String((values as Record<string, unknown>)[name])),
            );
            url = atRoot ? url : `/api/v1${url === "/" ? "" : url}`;
            const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
            const full = search.size ? `${url}?${search}` : url;
            const res = await call(full, { method: method.toUpperCase(), token: user.key, body });
            const where = `${method.toUpperCase()} ${full} ${JSON.stringify(body)?.slice(0, 200)} → ${res.status}`;
            const documented = operation.responses[String(res.status)] ?? operation.responses.default;
            // 501 is a permanent state an operation documents (push_off: this deployment has no VAPID keys, as the
            // pool's env has none), checked like any documented answer; any other 5xx is a fault.
            if (res.status >= 500 && !(res.status === 501 && documented))
              failures.push(`5xx: ${where} ${await res.text()}`);
            else if (!documented) failures.push(`undocumented status: ${where} ${await res.text()}`);
            else {
              const type = res.headers.get("content-type") ?? "";
              if (res.status >= 400 && type !== "application/problem+json")
                failures.push(`4xx not problem+json: ${where}`);
              const schema =
                documented.content?.[type.split(";")[0]!]?.schema ?? documented.content?.["application/json"]?.schema;
              if (schema && type.includes("json") && res.status !== 304) {
                const body = await res.json();
                const result = new Validator(
                  { ...schema, components: doc.components } as never,
                  "2020-12",
                  false,
                ).validate(body);
                if (!result.valid)
                  failures.push(`body off schema: ${where} ${JSON.stringify(result.errors.slice(0, 3))}`);
              }
            }
          }),
          { numRuns: RUNS },
        );
      }
    }
    console.log(`OpenAPI conformance: ${tried} requests, ${failures.length} failures`);
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
