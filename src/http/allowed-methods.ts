import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { problemResponse } from "../transport/problem";

/**
 * 405 with `Allow` for a method the OpenAPI document does not list on a path it documents (RFC 9110
 * 15.5.6), instead of the 404 an unknown path gets. Read from the document's own registry, so a new
 * operation is allowed the moment it is declared. A path is under `base` unless its operation names
 * its own `servers` (the task feed, served from the origin's root).
 */

interface DocumentedPath {
  pattern: RegExp;
  methods: Set<string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `/calendars/{id}.ics` → /^\/api\/v1\/calendars\/[^/]+\.ics\/?$/ */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join("[^/]+")}/?$`,
  );

function documentedPaths(document: OpenAPIHono<AppEnv>, base: string): DocumentedPath[] {
  const byPath = new Map<string, DocumentedPath>();
  for (const definition of document.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { method, path, servers } = definition.route;
    const full = servers?.some((server) => server.url === "/") ? path : `${base}${path === "/" ? "" : path}`;
    const entry = byPath.get(full) ?? { pattern: patternOf(full), methods: new Set<string>() };
    entry.methods.add(method.toUpperCase());
    // Hono answers HEAD with the GET route.
    if (method === "get") entry.methods.add("HEAD");
    byPath.set(full, entry);
  }
  return [...byPath.values()];
}

/** The app's notFound: 405 with `Allow` on a documented path, else the 404 `not_found`. */
export function notFoundOrNotAllowed(document: OpenAPIHono<AppEnv>, base: string) {
  let paths: DocumentedPath[] | undefined;
  return (c: Context<AppEnv>) => {
    paths ??= documentedPaths(document, base);
    const allowed = new Set(paths.filter((p) => p.pattern.test(c.req.path)).flatMap((p) => [...p.methods]));
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      const allow = [...allowed].sort().join(", ");
      c.header("Allow", allow);
      const detail = `${c.req.method} is not allowed on ${c.req.path}. Allowed: ${allow}.`;
      return problemResponse(c, new AppError("method_not_allowed", detail));
    }
    return problemResponse(c, new AppError("not_found", `No route for ${c.req.method} ${c.req.path}.`));
  };
}
