import { describe, expect, it } from "vitest";
import { call, json, maxUser } from "../helpers";

/**
 * Answers that agree with the OpenAPI document (issue 35, item 6): a method the document does not
 * list on a path it documents is 405 with `Allow`, and a pack id of up to 100 characters is valid in
 * `/calendars/{id}.ics` too (the suffix does not count).
 */

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The document's paths as requests: each `{param}` filled, the feed at the origin's root. */
async function documentedPaths() {
  const document = await json(await call("/api/v1/openapi.json"));
  return Object.entries(document.paths as Record<string, Record<string, { servers?: { url: string }[] }>>).map(
    ([path, operations]) => {
      const methods = Object.keys(operations)
        .filter((key) => METHODS.includes(key.toUpperCase() as (typeof METHODS)[number]))
        .map((key) => key.toUpperCase());
      const atRoot = Object.values(operations).some((op) => op.servers?.some((s) => s.url === "/"));
      const filled = path.replace(/\{[^}]+\}/g, "de");
      return { path, url: atRoot ? filled : `/api/v1${filled === "/" ? "" : filled}`, methods };
    },
  );
}

describe("methods the document does not list", () => {
  it("answer 405 problem+json with Allow on every documented path", async () => {
    const user = await maxUser("405");
    const paths = await documentedPaths();
    expect(paths.length).toBeGreaterThan(10);
    for (const { path, url, methods } of paths) {
      const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].sort().join(", ");
      for (const method of METHODS.filter((m) => !methods.includes(m))) {
        const res = await call(url, { method, token: user.key, body: method === "GET" ? undefined : {} });
        expect([path, method, res.status], await res.clone().text()).toEqual([path, method, 405]);
        expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect((await json(res)).code).toBe("method_not_allowed");
      }
    }
  });

  it("still answer 404 on a path the document does not have", async () => {
    const res = await call("/api/v1/nothing-here", { method: "PUT" });
    expect(res.status).toBe(404);
    expect(res.headers.get("allow")).toBeNull();
  });
});

describe("/calendars/{id}.ics with a long id", () => {
  it.each([97, 98, 99, 100])("takes a %i-character id as documented: 404 pack_not_found, not 400", async (length) => {
    const res = await call(`/api/v1/calendars/${"x".repeat(length)}.ics`);
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("pack_not_found");
  });

  it("refuses a 101-character id with 400, in both forms", async () => {
    for (const suffix of ["", ".ics"]) {
      const res = await call(`/api/v1/calendars/${"x".repeat(101)}${suffix}`);
      expect(res.status).toBe(400);
      expect((await json(res)).errors).toEqual([{ path: "id", message: expect.stringContaining("100") }]);
    }
  });
});
