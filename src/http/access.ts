import { type Hook, OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../transport/env";
import {
  authenticateBeforeRejecting,
  authenticateCaller,
  requireAdminToken,
  requireApiKey,
  requireSession,
} from "../transport/auth";
import { session } from "./account-schemas";
import { privateCors, publicCors } from "../transport/cors";
import { errorResponses } from "../transport/problem";
import { TaskChange } from "./v1/tasks";
import { documentKeyRateLimit, limitAccount, limitAuthByIp } from "../transport/rate-limit";
import { noStore } from "./security-headers";
import { refuseForeignCookieRequests } from "../transport/session-cookie";
import { defaultHook, jsonBodies, optionalBody, uploadBody } from "../transport/validation";

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

// Routes that call an account's object: a refused body or parameter first pays the caller's judgement
// by that object (`authenticateCaller`, one call), so the order is 401, then 403 (no Max), then 400.
const callerBodies = jsonBodies(authenticateCaller);

/**
 * /api/v1 resources. The key's format and per-key limit are checked before any D1 work; the key
 * itself, and the account's Max, are judged by the account's object in the request's one call.
 */
export const API_KEY: Access = {
  credentials: "api key",
  guards: [privateCors, requireApiKey, callerBodies],
  hook: authenticateBeforeRejecting,
  document: (route) => {
    documentKeyRateLimit(route);
    documentValidation(route);
  },
};

/**
 * The account page's routes: the session (a bearer token, or the pages' cookie from this site's own pages
 * only: `refuseForeignCookieRequests`), then its account's rate limit, then the body (401, 403, 429, 400).
 */
export const SESSION: Access = {
  credentials: "session",
  guards: [privateCors, noStore, requireSession, refuseForeignCookieRequests, limitAccount, jsonBodies()],
};

/**
 * The tasks page's task and list routes: /api/v1's own handlers (v1/tasks.ts, v1/lists.ts) for the
 * session's account, at the page's paths. As SESSION, but the session's account is judged by its
 * object before input, like a key: 401, 429, then 403 (no Max), then 400.
 */
export const SESSION_TASKS: Access = {
  credentials: "session",
  guards: [privateCors, noStore, requireSession, refuseForeignCookieRequests, limitAccount, callerBodies],
  hook: authenticateBeforeRejecting,
  document: documentSessionTasks,
};

/** Signing out needs the session and nothing else: no body, and no account budget that could keep a session alive. */
export const SIGN_OUT: Access = {
  credentials: "session",
  guards: [privateCors, noStore, requireSession, refuseForeignCookieRequests],
};

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

/** 400 wherever a parameter or body is validated: a malformed `{id}` is refused like a body (conformance run). */
function documentValidation(route: { responses: object; request?: object }) {
  const responses = route.responses as Record<string, unknown>;
  if (route.request && !responses["400"]) responses["400"] = errorResponses("validation_failed")[400];
}

/**
 * The page's operations in the account routes' OpenAPI document: REST's declarations with the session
 * as their security, the account's rate limit (429), 400 wherever a parameter is validated, and the
 * body PATCH answers a session (`{ task, next }`).
 */
function documentSessionTasks(route: {
  responses: object;
  security?: unknown;
  request?: object;
  operationId?: string;
}) {
  route.security = session;
  const responses = route.responses as Record<string, unknown>;
  documentValidation(route);
  responses["429"] = errorResponses("rate_limited")[429];
  if (route.operationId === "updateTask")
    responses["200"] = {
      description: "The updated task, and its next occurrence if one was created.",
      content: { "application/json": { schema: TaskChange } },
    };
}

type Handler = OpenAPIHono<AppEnv>["routes"][number]["handler"];
const declared = new WeakMap<Handler, Set<Access>>();

/**
 * The accesses a handler was registered under through `routesFor`: one, or two for a handler that
 * serves two doors (the task and list handlers: API_KEY and SESSION_TASKS).
 */
export const accessesOf = (handler: Handler): readonly Access[] => [...(declared.get(handler) ?? [])];

const declare = (handler: Handler, access: Access) =>
  declared.set(handler, (declared.get(handler) ?? new Set()).add(access));

/**
 * Runs each `register` on a fresh app, then puts `access`'s guards in front of every path it used,
 * however its routes were added (`openapi`, `get`, `use`). Mount the result with `app.route(…)`.
 */
export function routesFor(access: Access, ...register: ((app: OpenAPIHono<AppEnv>) => void)[]): OpenAPIHono<AppEnv> {
  const routes = new OpenAPIHono<AppEnv>({ defaultHook: access.hook ?? defaultHook });
  for (const add of register) add(routes);
  for (const definition of routes.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    // Each registration documents its own responses: a route's declaration may serve two accesses.
    definition.route.responses = { ...definition.route.responses };
    access.document?.(definition.route);
  }
  for (const route of routes.routes) declare(route.handler, access);

  const guarded = new OpenAPIHono<AppEnv>();
  // Before the guards, so that their body rules know the route's declaration (`required: false`).
  for (const { method, path } of bodyRoutes(routes, (body) => body.required === false)) {
    guarded.on(method, path, optionalBody);
  }
  for (const { method, path } of bodyRoutes(routes, isUpload)) guarded.on(method, path, uploadBody);
  for (const path of guardedPaths(routes.routes, access)) guarded.use(path, ...access.guards);
  return guarded.route("/", routes);
}

interface DeclaredBody {
  required?: boolean;
  content: Record<string, unknown>;
}

/** A body declared in a media type other than JSON: the route reads it itself. */
const isUpload = (body: DeclaredBody) => Object.keys(body.content).some((type) => !type.endsWith("json"));

/** The routes whose OpenAPI body declaration matches (`required: false`, an upload), at their Hono paths. */
function bodyRoutes(routes: OpenAPIHono<AppEnv>, matches: (body: DeclaredBody) => boolean) {
  return routes.openAPIRegistry.definitions.flatMap((definition) =>
    definition.type === "route" && definition.route.request?.body && matches(definition.route.request.body)
      ? [
          {
            method: definition.route.method.toUpperCase(),
            path: definition.route.path.replaceAll(/\/{(.+?)}/g, "/:$1"),
          },
        ]
      : [],
  );
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
