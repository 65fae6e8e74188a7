import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { AppError } from "../domain/errors";
import type { AppEnv } from "./env";

/**
 * Browser access. Public, credential-free documents are readable from any origin; the task, list,
 * account and admin routes only from this site itself, hostnames listed in ALLOWED_ORIGINS,
 * and localhost pages when the Worker itself runs on localhost (wrangler dev). Which routes get
 * which policy is part of their access (access.ts); calendars, /SKILL.md and /llms.txt set `*`
 * themselves, and /mcp applies its own Origin check in src/mcp/handler.ts.
 */

export const publicCors = cors({ origin: "*", allowMethods: ["GET", "HEAD", "OPTIONS"], maxAge: 86400 });

const LOCALHOST = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function originAllowedFor(origin: string, requestUrl: string, allowedOrigins: string): boolean {
  let host: string;
  try {
    const url = new URL(origin);
    if (url.origin === "null" || !/^https?:$/.test(url.protocol)) return false;
    host = url.hostname.toLowerCase();
  } catch {
    return false;
  }
  const self = new URL(requestUrl).hostname.toLowerCase();
  if (host === self) return true;
  if (LOCALHOST.has(host) && LOCALHOST.has(self)) return true;
  return allowedOrigins
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .includes(host);
}

const grant = cors({
  origin: (origin) => origin,
  allowMethods: ["GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match"],
  exposeHeaders: [
    "ETag",
    "Location",
    "Link",
    "Idempotent-Replayed",
    "List-Created",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "WWW-Authenticate",
  ],
  maxAge: 600,
});

/**
 * A request that carries a foreign Origin is refused with 403 `forbidden_origin`, preflight or
 * not, before authentication or rate limiting. Requests without Origin (every non-browser
 * client) pass untouched.
 */
export const privateCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (origin === undefined) return next();
  if (!originAllowedFor(origin, c.req.url, c.env.ALLOWED_ORIGINS ?? "")) {
    throw new AppError(
      "forbidden_origin",
      "This Origin may not call this route. Ask the operator to add it to ALLOWED_ORIGINS.",
    );
  }
  return grant(c, next);
};
