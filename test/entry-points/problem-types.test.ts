import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { errorCodes } from "../../src/domain/errors";
import { call, json } from "../helpers";

/**
 * Every problem's `type` URI leads to a page (RFC 9457 §3.1.1): for each code the OpenAPI documents say an
 * operation can answer, GET /problems/<code> is a 200 page with its status, meaning and what to do.
 */

/** Codes an OpenAPI document names: the Problem schema's `code` enum and `code` mentions in response descriptions. */
function codesIn(document: unknown): Set<string> {
  const found = new Set<string>();
  const text = JSON.stringify(document);
  for (const m of text.matchAll(/`([a-z]+(?:_[a-z]+)*)`/g)) found.add(m[1]!);
  const schemas = (document as { components?: { schemas?: Record<string, any> } }).components?.schemas ?? {};
  for (const code of schemas.Problem?.properties?.code?.enum ?? []) found.add(code);
  return new Set([...found].filter((word) => (errorCodes as readonly string[]).includes(word)));
}

describe("problem type pages", () => {
  it("serves a page for every code in the OpenAPI documents, with its status, meaning and what to do", async () => {
    const published = await json(await call("/api/v1/openapi.json"));
    const whole = createApp().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "every route", version: "0" } });
    const codes = new Set([...codesIn(published), ...codesIn(whole)]);
    expect([...codes].sort()).toEqual([...errorCodes].sort());

    for (const code of codes) {
      const res = await call(`/problems/${code}`);
      expect(res.status, code).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, code).toContain(`<code>${code}</code>`);
      expect(html).toMatch(/HTTP status <strong>\d{3}<\/strong>/);
      expect(html).toContain("<h2>What it means</h2>");
      expect(html).toContain("<h2>What to do</h2>");
      expect(html).not.toMatch(/<script/i);
    }
  });

  it("is where a problem's `type` leads", async () => {
    const problem = await json(await call("/api/v1/tasks"));
    expect(problem.code).toBe("unauthorized");
    const page = await call(new URL(problem.type).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("HTTP status <strong>401</strong>");
  });

  it("answers 404 problem+json for a code that does not exist", async () => {
    const res = await call("/problems/no_such_code");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(res)).code).toBe("not_found");
  });
});
