import { type Hook, OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { authenticateBeforeRejecting, authenticateKey, requireAdminToken, requireApiKey, requireSession } from "./auth";
import { privateCors, publicCors } from "./cors";
import { documentKeyRateLimit, limitAccount, limitAuthByIp } from "./rate-limit";
import { noStore } from "./security-headers";
import { defaultHook, jsonBodies } from "./validation";

/**
 * Who may call a route, and what runs before its handler. A route gets its access from the app it
 * is registered on (`routesFor`), never from a list of paths in another file: a route added to the
 * API-key routes is behind the key, its origin policy, its rate limit and its body rules without
 * anyone remembering them, and a public route says it is public where it is registered.
 * test/http/route-guards.test.ts holds every route to its declaration.
 */
export interface Access {
  /** What a caller must show; "none" declares the routes public. */
  readonly credentials: "none" | "api key" | "session" | "admin token";
  /** In this order: origin policy, credentials, rate limits, then body rules (401, then 403, then 400). */
  readonly guards: readonly MiddlewareHandler<AppEnv>[];
  /** The routes' validation hook, for guards that leave part of their judgement until a request is refused. */
  readonly hook?: Hook<any, AppEnv, any, any>;
  /** Adds what the guards themselves answer (429, RateLimit headers) to each operation's OpenAPI responses. */
  readonly document?: (route: { responses: object }) => void;
}

/**
 * /api/v1 resources. The key's format and per-key limit are checked before any D1 work; its
 * lookup rides in the verb's own batch, so a refused body or parameter is judged after the key's
 * lookup (`authenticateKey`): 401, then 403 (no Max), then 400.
 */
export const API_KEY: Access = {
  credentials: "api key",
  guards: [privateCors, requireApiKey, jsonBodies(authenticateKey)],
  hook: authenticateBeforeRejecting,
  document: documentKeyRateLimit,
};

/** The account page's routes: the session, then its account's rate limit, then the body (401, 429, 400). */
export const SESSION: Access = {
  credentials: "session",
  guards: [privateCors, noStore, requireSession, limitAccount, jsonBodies()],
};

/** Signing out needs the session and nothing else: no body, and no account budget that could keep a session alive. */
export const SIGN_OUT: Access = { credentials: "session", guards: [privateCors, noStore, requireSession] };

/** Signing up and in: public by nature, so limited per client IP before the body is read. */
export const SIGN_IN: Access = {
  credentials: "none",
  guards: [privateCors, limitAuthByIp, noStore, jsonBodies()],
};

/** Operator routes: 404 while the ADMIN_TOKEN secret is unset, 401 without the token. */
export const ADMIN: Access = { credentials: "admin token", guards: [privateCors, requireAdminToken, jsonBodies()] };

/** The API root and the OpenAPI document: readable from any origin. */
export const PUBLIC_DOCUMENT: Access = { credentials: "none", guards: [publicCors] };

/** Public routes that set their own headers (calendars, entry points, the docs page, the bench's 404). */
export const PUBLIC: Access = { credentials: "none", guards: [] };

export const isPublic = (access: Access) => access.credentials === "none";

type Handler = OpenAPIHono<AppEnv>["routes"][number]["handler"];
const declared = new WeakMap<Handler, Access>();

/** The access a handler was registered under, if it was registered through `routesFor`. */
export const accessOf = (handler: Handler): Access | undefined => declared.get(handler);

/**
 * Runs each `register` on a fresh app, then puts `access`'s guards in front of every path it used,
 * however its routes were added (`openapi`, `get`, `use`). Mount the result with `app.route(…)`.
 */
export function routesFor(access: Access, ...register: ((app: OpenAPIHono<AppEnv>) => void)[]): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>({ defaultHook: access.hook ?? defaultHook });
  for (const add of register) add(routes);
  for (const definition of routes.openAPIRegistry.definitions)
    if (definition.type === "route") access.document?.(definition.route);
  for (const route of routes.routes) declared.set(route.handler, access);

  const guarded = new OpenAPIHono<AppEnv>();
  for (const path of guardedPaths(routes.routes, access)) guarded.use(path, ...access.guards);
  return guarded.route("/", routes);
}

/**
 * Guards run on every method of a path, so that preflights and methods the path does not serve are
 * judged like its routes. Guards that ask for credentials also cover everything below their paths:
 * a caller without them learns nothing of what lies there (401 before 404). Public guards stay on
 * their own paths, which may lie above protected ones (`/` is above everything).
 */
function guardedPaths(routes: readonly { path: string }[], access: Access): string[] {
  if (access.guards.length === 0) return [];
  const paths = new Set(routes.map((r) => r.path));
  const covered = isPublic(access)
    ? paths
    : new Set([...paths].map((p) => (p.endsWith("/*") ? p : `${p.replace(/\/$/, "")}/*`)));
  // `/x/*` also matches `/x` and all below it: keep the outermost, or the guards would run twice.
  const below = (path: string, wildcard: string) =>
    wildcard !== path && wildcard.endsWith("/*") && `${path}/`.startsWith(wildcard.slice(0, -1));
  return [...covered].filter((path) => ![...covered].some((other) => below(path, other)));
}
