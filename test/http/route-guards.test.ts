import { createRoute } from "@hono/zod-openapi";
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { API_KEY, accessesOf, isPublic, PUBLIC, routesFor, SESSION_TASKS } from "../../src/http/access";
import { MCP_PATH } from "../../src/transport/mcp-path";
import { OAUTH_ENDPOINTS, PROTECTED_RESOURCE_ROOT } from "../../src/transport/oauth-paths";
import { BASE } from "../helpers";

/**
 * No route ships unguarded. Every route Hono knows, every operation of the OpenAPI documents, and
 * /mcp (which src/index.ts serves outside Hono) is either declared public or refuses a request
 * without credentials with 401 problem+json. "Declared public" is read from the code, never from a
 * list here: the access a route was registered under (src/http/access.ts), or `security: []` on an
 * operation. The public surface pinned below only makes a newly public route visible in review.
 */

type App = ReturnType<typeof createApp>;
type Handler = App["routes"][number]["handler"];

interface Route {
  /** "ALL" for middleware (`use`), which serves nothing of its own. */
  method: string;
  /** Hono's pattern: /api/v1/tasks/:id, /account/*. */
  path: string;
  declaredPublic: boolean;
  /** Where the route was found. */
  source: string;
}

const SAMPLE_ID = "0193c000-0000-7000-8000-000000000000";
const requestPath = (pattern: string) => pattern.replace(/:\w+(\{[^}]*\})?/g, SAMPLE_ID).replace(/\*$/, "probe");
const declaredPublic = (handler: Handler | undefined) => {
  const accesses = handler ? accessesOf(handler) : [];
  return accesses.length > 0 && accesses.every(isPublic);
};

/** An endpoint is public when the handler that answers (its last) is; middleware when all it runs before are. */
function honoRoutes(app: App): Route[] {
  const groups = new Map<string, { method: string; path: string; handlers: Handler[] }>();
  for (const { method, path, handler } of app.routes) {
    const key = `${method} ${path}`;
    const group = groups.get(key) ?? { method, path, handlers: [] };
    group.handlers.push(handler);
    groups.set(key, group);
  }
  const endpoints = [...groups.values()].filter((g) => g.method !== "ALL");
  return [...groups.values()].map(({ method, path, handlers }) => {
    const under = endpoints.filter((e) => e.path === path);
    const open =
      method !== "ALL"
        ? declaredPublic(handlers.at(-1))
        : handlers.every(declaredPublic) || (under.length > 0 && under.every((e) => declaredPublic(e.handlers.at(-1))));
    return { method, path, declaredPublic: open, source: "hono" };
  });
}

interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, { security?: unknown[]; servers?: { url: string }[] }>>;
}

function operations(document: Document, source: string): Route[] {
  const base = document.servers ? document.servers[0]!.url : BASE;
  // An operation's own `servers` (the task feed, served at the root) replace the document's.
  const prefixOf = (servers = document.servers) =>
    servers ? new URL(servers[0]!.url, `${base}/`).pathname.replace(/\/$/, "") : "";
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: `${prefixOf(operation.servers)}${path}`.replace(/\{(\w+)\}/g, ":$1"),
      declaredPublic: Array.isArray(operation.security) && operation.security.length === 0,
      source,
    })),
  );
}

/** What src/index.ts serves before Hono sees a request. A route served there joins this list. */
const outsideHono: Route[] = [
  ...["GET", "POST", "DELETE"].map((method) => ({
    method,
    path: MCP_PATH,
    declaredPublic: false,
    source: "src/index.ts",
  })),
  // The OAuth provider's own endpoints (src/transport/oauth-paths.ts): public by the protocol, which they implement.
  ...[
    ["POST", OAUTH_ENDPOINTS.token],
    ["POST", OAUTH_ENDPOINTS.register],
    ["GET", "/.well-known/oauth-authorization-server"],
    ["GET", PROTECTED_RESOURCE_ROOT],
    ["GET", `${PROTECTED_RESOURCE_ROOT}${MCP_PATH}`],
  ].map(([method, path]) => ({ method: method!, path: path!, declaredPublic: true, source: "src/oauth/provider.ts" })),
];
const servedOutsideHono = new Set(outsideHono.map((route) => route.path));

/** As src/index.ts dispatches: its own routes through the Worker itself, the rest to `app`. */
async function send(app: App, method: string, path: string): Promise<Response> {
  const request = new Request(`${BASE}${path}`, { method });
  return servedOutsideHono.has(path)
    ? exports.default.fetch(request)
    : app.fetch(request, env, createExecutionContext());
}

async function allRoutes(app: App): Promise<Route[]> {
  const published = (await (await send(app, "GET", "/api/v1/openapi.json")).json()) as Document;
  // Every OpenAPIHono mounted into the app (v1, account, admin) merged its operations into this one.
  const whole = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "every route", version: "0" } });
  return [
    ...honoRoutes(app),
    ...operations(published, "GET /api/v1/openapi.json"),
    ...operations(whole as unknown as Document, "the app's OpenAPI registry"),
    ...outsideHono,
  ];
}

/** The routes that are neither declared public nor refuse a request without credentials. */
async function unguarded(app: App): Promise<string[]> {
  const found: string[] = [];
  for (const route of await allRoutes(app)) {
    if (route.declaredPublic) continue;
    const res = await send(app, route.method === "ALL" ? "GET" : route.method, requestPath(route.path));
    const problem = res.headers.get("content-type") === "application/problem+json";
    // Middleware may also find nothing to serve where it was probed: that is no route either.
    const refused = problem && (res.status === 401 || (route.method === "ALL" && res.status === 404));
    await res.body?.cancel();
    if (!refused) found.push(`${route.source}: ${route.method} ${route.path} answered ${res.status}`);
  }
  return found;
}

describe("route guards", () => {
  it("every route, operation and /mcp is declared public or refuses a request without credentials", async () => {
    expect(await unguarded(createApp())).toEqual([]);
  });

  it("the OpenAPI documents say what the routes declare: `security: []` exactly on public routes", async () => {
    const routes = await allRoutes(createApp());
    const endpoints = new Map(routes.filter((r) => r.source === "hono").map((r) => [`${r.method} ${r.path}`, r]));
    const disagreements = routes
      .filter((r) => r.source !== "hono" && endpoints.has(`${r.method} ${r.path}`))
      .filter((r) => endpoints.get(`${r.method} ${r.path}`)!.declaredPublic !== r.declaredPublic)
      .map((r) => `${r.source}: ${r.method} ${r.path}`);
    expect(disagreements).toEqual([]);
  });

  it("the public surface is the one chosen: a new public route shows up here in review", () => {
    const open = honoRoutes(createApp())
      .filter((r) => r.declaredPublic && r.method !== "ALL")
      .map((r) => `${r.method} ${r.path}`);
    expect(open.sort()).toEqual([
      "GET /SKILL.md",
      "GET /_bench/d1",
      "GET /_bench/object",
      "GET /api/v1",
      "GET /api/v1/calendars",
      "GET /api/v1/calendars/:id",
      "GET /api/v1/docs",
      "GET /api/v1/openapi.json",
      "GET /api/v1/push/public-key",
      "GET /email/unsubscribe",
      "GET /feeds/:file",
      "GET /llms.txt",
      "GET /oauth/authorize",
      "GET /problems/:code",
      "GET /references/REFERENCE.md",
      "POST /_bench/d1",
      "POST /auth/login",
      "POST /auth/passkey",
      "POST /auth/passkey/options",
      "POST /auth/password-reset",
      "POST /auth/password-reset/confirm",
      "POST /auth/signup",
      "POST /auth/verify",
      "POST /billing/stripe/webhook",
      "POST /email/unsubscribe",
      "POST /oauth/authorize",
    ]);
  });
});

describe("the tasks page's routes", () => {
  // Hono lists an endpoint once per handler in its chain; the last one answers, middleware (`ALL`) guards it.
  const app = createApp();
  const answering = new Map<string, Handler>();
  const guards = new Map<string, Handler[]>();
  for (const r of app.routes) {
    if (r.method !== "ALL") answering.set(`${r.method} ${r.path}`, r.handler);
    else guards.set(r.path, [...(guards.get(r.path) ?? []), r.handler]);
  }
  const PAGE = [
    "DELETE /account/lists/:id",
    "DELETE /account/tasks/:id",
    "GET /account/lists",
    "GET /account/tasks",
    "GET /account/tasks/:id",
    "PATCH /account/lists/:id",
    "PATCH /account/tasks/:id",
    "POST /account/lists",
    "POST /account/tasks",
    "POST /account/tasks/:id/move",
  ];

  it("are /api/v1's own handlers: no handler body exists twice", () => {
    expect([...answering.keys()].filter((name) => /^\w+ \/account\/(tasks|lists)/.test(name)).sort()).toEqual(PAGE);
    for (const name of PAGE) {
      const rest = answering.get(name.replace(" /account/", " /api/v1/"));
      expect(rest, name).toBeTypeOf("function");
      expect(answering.get(name), name).toBe(rest);
      expect(accessesOf(rest!), name).toHaveLength(2);
      expect(accessesOf(rest!), name).toEqual(expect.arrayContaining([API_KEY, SESSION_TASKS]));
    }
  });

  it("are guarded as session routes at the page's paths, never by the key", () => {
    for (const path of ["/account/tasks/*", "/account/lists/*"])
      expect(guards.get(path), path).toEqual(SESSION_TASKS.guards);
    for (const path of ["/api/v1/tasks/*", "/api/v1/lists/*"]) expect(guards.get(path), path).toEqual(API_KEY.guards);
  });
});

describe("the route-guard check", () => {
  it("catches a route registered without guards", async () => {
    const app = createApp();
    app.get("/api/v1/leak", (c) => c.json({ secret: true }));
    expect(await unguarded(app)).toEqual(["hono: GET /api/v1/leak answered 200"]);
  });

  it("catches an operation documented without guards, in the Hono routes and in the OpenAPI walk", async () => {
    const app = createApp();
    const leak = createRoute({ method: "get", path: "/api/v1/leak", responses: { 200: { description: "A leak." } } });
    app.openapi(leak, (c) => c.json({ secret: true }, 200));
    expect(await unguarded(app)).toEqual([
      "hono: GET /api/v1/leak answered 200",
      "the app's OpenAPI registry: GET /api/v1/leak answered 200",
    ]);
  });

  it("passes a route added to the API-key routes: it is guarded without anyone asking", async () => {
    const app = createApp();
    app.route(
      "/api/v1",
      routesFor(API_KEY, (routes) => routes.get("/lists", (c) => c.json({ data: [] }))),
    );
    expect(await unguarded(app)).toEqual([]);
    const res = await send(app, "GET", "/api/v1/lists");
    expect(res.status).toBe(401);
    const foreign = await app.fetch(
      new Request(`${BASE}/api/v1/lists`, { headers: { Origin: "https://evil.example" } }),
      env,
      createExecutionContext(),
    );
    expect(foreign.status).toBe(403);
  });

  it("passes a public route only because it is declared public", async () => {
    const app = createApp();
    app.route(
      "/",
      routesFor(PUBLIC, (routes) => routes.get("/open", (c) => c.json({ open: true }))),
    );
    expect(await unguarded(app)).toEqual([]);
    expect(honoRoutes(app).find((r) => r.path === "/open")?.declaredPublic).toBe(true);
  });
});
