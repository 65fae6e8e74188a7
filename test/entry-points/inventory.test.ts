import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call, json } from "../helpers";

/**
 * Routes served under /api/v1 without being API operations: the document itself and the page that
 * renders it. They describe the API rather than belong to it, so the document does not list them.
 */
const DOCUMENTATION_ROUTES = new Set(["GET /api/v1/openapi.json", "GET /api/v1/docs"]);

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Operations that share another route's handler: Hono cannot route `{id}.ics` as a parameter plus a
 * suffix, and a second pattern on the same segment would cost its fast router (test/http/routing.test.ts),
 * so the `{id}` handler serves ids ending in `.ics`. The last test checks that it does.
 */
const SERVED_BY = new Map([
  ["GET /api/v1/calendars/{}.ics", "GET /api/v1/calendars/{}"],
  ["GET /feeds/{}.ics", "GET /feeds/{}"],
]);

/** Where an operation is served: under /api/v1, or where its own `servers` put it (the task feed, at the root). */
const prefixOf = (operation: { servers?: { url: string }[] }) =>
  operation.servers
    ? new URL(operation.servers[0]!.url, "https://todo.example.com/api/v1/").pathname.replace(/\/$/, "")
    : "/api/v1";

/** One spelling for a route in Hono and in OpenAPI: parameters become `{}` (names may differ), no trailing slash. */
const normalize = (path: string) =>
  path
    .replace(/\{[A-Za-z0-9_]+\}/g, "{}")
    .replace(/:[A-Za-z0-9_]+/g, "{}")
    .replace(/(.)\/$/, "$1");

describe("route inventory", () => {
  it("serves exactly the /api/v1 operations the OpenAPI document lists", async () => {
    const doc = await json(await call("/api/v1/openapi.json"));
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, { servers?: { url: string }[] }>>(doc.paths)) {
      for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
        documented.add(`${method.toUpperCase()} ${normalize(`${prefixOf(item[method]!)}${path}`)}`);
      }
    }

    // Handlers only: middleware registered with `use` shows up as method ALL.
    const served = new Set(
      createApp()
        .routes.filter((r) => r.method !== "ALL" && (r.path.startsWith("/api/v1") || r.path.startsWith("/feeds/")))
        .map((r) => `${r.method} ${normalize(r.path)}`)
        .filter((route) => !DOCUMENTATION_ROUTES.has(route)),
    );
    for (const [operation, route] of SERVED_BY) {
      if (!served.has(route)) continue;
      served.add(operation);
      // A route that only serves another operation's spelling is not an operation of its own.
      if (!documented.has(route)) served.delete(route);
    }

    expect(documented.size).toBeGreaterThan(0);
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("serves the documentation routes it leaves out of the document", async () => {
    for (const route of DOCUMENTATION_ROUTES) {
      const res = await call(route.split(" ")[1]!);
      expect(res.status, route).toBe(200);
    }
  });

  it("serves the operations that share a handler", async () => {
    const res = await call("/api/v1/calendars/de.ics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(await res.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });
});
