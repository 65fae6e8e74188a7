import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, json, maxUser } from "../helpers";
import { callWith } from "./support";

const FOREIGN = "https://evil.example";
const preflight = (method: string, origin = FOREIGN) => ({
  method: "OPTIONS",
  headers: {
    Origin: origin,
    "Access-Control-Request-Method": method,
    "Access-Control-Request-Headers": "authorization, content-type",
  },
});

describe("CORS", () => {
  const publicPaths = [
    "/api/v1/",
    "/api/v1/openapi.json",
    "/api/v1/calendars",
    "/api/v1/calendars/de",
    "/llms.txt",
    "/SKILL.md",
  ];
  for (const path of publicPaths) {
    it(`public ${path} allows any origin`, async () => {
      const res = await call(path, { headers: { Origin: FOREIGN } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    });
  }

  it("public preflights are granted with *", async () => {
    for (const path of ["/api/v1/", "/api/v1/openapi.json", "/api/v1/calendars"]) {
      const res = await call(path, preflight("GET"));
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  const privateRoutes = [
    ["/api/v1/tasks", "GET"],
    ["/api/v1/tasks", "POST"],
    ["/api/v1/tasks/0193c000-0000-7000-8000-000000000000", "PATCH"],
    ["/api/v1/tasks/0193c000-0000-7000-8000-000000000000", "DELETE"],
    ["/auth/login", "POST"],
    ["/auth/signup", "POST"],
    ["/account", "GET"],
    ["/account/api-keys", "POST"],
    ["/mcp", "POST"],
  ] as const;

  for (const [path, method] of privateRoutes) {
    it(`${method} ${path} grants no foreign origin: preflight refused, request refused`, async () => {
      const pre = await call(path, preflight(method));
      expect(pre.headers.get("access-control-allow-origin") === FOREIGN || pre.status < 300).toBe(false);
      const user = await maxUser("cors");
      const actual = await call(path, {
        method,
        token: path.startsWith("/api") || path === "/mcp" ? user.key : user.session,
        headers: { Origin: FOREIGN, Accept: "application/json, text/event-stream" },
        body: method === "GET" || method === "DELETE" ? undefined : {},
      });
      expect(actual.status).toBe(403);
      expect((await json(actual)).code).toBe("forbidden_origin");
      expect(actual.headers.get("access-control-allow-origin")).not.toBe(FOREIGN);
    });
  }

  it("task routes grant this site itself and hostnames in ALLOWED_ORIGINS", async () => {
    const user = await maxUser("cors-own");
    const own = await call("/api/v1/tasks", { token: user.key, headers: { Origin: "http://example.com" } });
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe("http://example.com");
    // A browser client must be able to read the lifecycle headers (ETag, Link to the next occurrence, replays).
    const exposed = own.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
    for (const header of [
      "etag",
      "location",
      "link",
      "idempotent-replayed",
      "list-created",
      "retry-after",
      "ratelimit",
    ])
      expect(exposed).toContain(header);
    const partner = "https://app.partner.example";
    const allowed = await callWith(
      { ALLOWED_ORIGINS: "app.partner.example" },
      "/api/v1/tasks",
      preflight("POST", partner),
    );
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(partner);
    expect(allowed.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect((await call("/api/v1/tasks", { token: user.key, headers: { Origin: partner } })).status).toBe(403);
  });

  it("a malformed or opaque Origin is refused", async () => {
    const user = await maxUser("cors-null");
    for (const origin of ["null", "not a url", "file:///etc/passwd"]) {
      expect((await call("/api/v1/tasks", { token: user.key, headers: { Origin: origin } })).status).toBe(403);
    }
  });
});

describe("security headers", () => {
  it("the API reference (HTML served by the Worker) carries CSP, frame, referrer and sniffing protection", async () => {
    const res = await call("/api/v1/docs");
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("the account page (static HTML) carries them through static/_headers", async () => {
    const res = await env.ASSETS.fetch("http://example.com/");
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("every Worker response says nosniff, problem+json included", async () => {
    for (const path of ["/api/v1/", "/api/v1/tasks", "/nope"]) {
      expect((await call(path)).headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});
