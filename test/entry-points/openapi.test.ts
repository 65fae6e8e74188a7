import { describe, expect, it } from "vitest";
import { call, json } from "../helpers";

/**
 * The OpenAPI document is the API's reference for people and for code generators: every operation,
 * parameter and field says what it is and shows a value.
 */

interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  example?: unknown;
  examples?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/** Where a property or schema lacks a description or an example (a `$ref` carries its target's). */
function audit(schema: Schema | undefined, where: string, problems: string[]) {
  if (!schema || schema.$ref) return;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    for (const [i, member] of (schema[key] ?? []).entries()) audit(member, `${where}/${key}/${i}`, problems);
  }
  if (schema.items) audit(schema.items, `${where}[]`, problems);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${where}.${name}`;
    if (property.$ref) continue;
    if (!property.description) problems.push(`${path}: no description`);
    // Objects and arrays of references are shown through their members' examples.
    const composite = property.type === "object" || (property.type === "array" && property.items?.$ref);
    const shown =
      property.example !== undefined ||
      property.examples !== undefined ||
      property.const !== undefined ||
      property.enum?.length === 1;
    if (!composite && !shown) problems.push(`${path}: no example`);
    audit(property, path, problems);
  }
}

async function document() {
  const res = await call("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  return json(res);
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with servers, contact and a version", async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.contact.email).toMatch(/@/);
    expect(doc.servers).toEqual([
      expect.objectContaining({ url: "http://example.com/api/v1", description: expect.any(String) }),
    ]);
  });

  it("describes every operation with an operationId, summary, description, tag and error responses", async () => {
    const doc = await document();
    const problems: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const op = item[method];
        const where = `${method.toUpperCase()} ${path}`;
        for (const key of ["operationId", "summary", "description"]) if (!op[key]) problems.push(`${where}: no ${key}`);
        if (!op.tags?.length) problems.push(`${where}: no tag`);
        if (!op.responses?.["500"]) problems.push(`${where}: no 500 response`);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (!response.description) problems.push(`${where} ${status}: no description`);
          for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
            if (!header.description) problems.push(`${where} ${status} header ${name}: no description`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("has a description and an example on every parameter and field", async () => {
    const doc = await document();
    const problems: string[] = [];
    for (const [name, schema] of Object.entries<Schema>(doc.components?.schemas ?? {})) {
      if (!schema.description) problems.push(`${name}: no description`);
      audit(schema, name, problems);
    }
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const op = item[method];
        const where = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) {
          if (!p.description && !p.schema?.description) problems.push(`${where} ${p.in} ${p.name}: no description`);
          if (p.example === undefined && p.schema?.example === undefined && p.schema?.examples === undefined) {
            problems.push(`${where} ${p.in} ${p.name}: no example`);
          }
        }
        for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {}))
          audit(media.schema, `${where} body ${type}`, problems);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          for (const [type, media] of Object.entries<any>(response.content ?? {}))
            audit(media.schema, `${where} ${status} ${type}`, problems);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
