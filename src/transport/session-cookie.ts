import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { SESSION_DAYS } from "../control/accounts/service";
import { AppError } from "../domain/errors";
import type { AppEnv } from "./env";
import { publicOrigin } from "./public-origin";

/**
 * The pages' session: the same token `/auth/login` returns in JSON, in an HttpOnly cookie, so a new tab or a
 * bookmark of /tasks stays signed in and no script on the page can read it. `__Host-` binds it to this host
 * (Secure, Path=/, no Domain). Browsers refuse `__Host-` and Secure cookies over http, so on a local
 * http://localhost or 127.0.0.1 (wrangler dev) it is `todo_session`, without Secure. docs/security.md.
 * Beside it goes `todo_signed_in=1`, with no secret and readable by the page (web/session.ts): so a signed-out
 * visit knows it without a request that must fail.
 */
export const SESSION_COOKIE = "__Host-todo_session";
export const LOCAL_SESSION_COOKIE = "todo_session";
const SIGNED_IN_COOKIE = "todo_signed_in";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function cookieFor(c: Context): { name: string; hint: string; secure: boolean } {
  const url = new URL(c.req.url);
  const local = url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname);
  return local
    ? { name: LOCAL_SESSION_COOKIE, hint: SIGNED_IN_COOKIE, secure: false }
    : { name: SESSION_COOKIE, hint: `__Host-${SIGNED_IN_COOKIE}`, secure: true };
}

/** The session token the request's cookie carries, if any. */
export const sessionFromCookie = (c: Context) => getCookie(c, cookieFor(c).name);

/** Sets (or, after a refresh, sets again: 30 days sliding) the session cookie. */
export function setSessionCookie(c: Context, token: string) {
  const { name, hint, secure } = cookieFor(c);
  const maxAge = SESSION_DAYS * 86_400;
  setCookie(c, name, token, { path: "/", httpOnly: true, secure, sameSite: "Lax", maxAge });
  setCookie(c, hint, "1", { path: "/", secure, sameSite: "Lax", maxAge });
}

export function clearSessionCookie(c: Context) {
  const { name, hint, secure } = cookieFor(c);
  deleteCookie(c, name, { path: "/", httpOnly: true, secure, sameSite: "Lax" });
  deleteCookie(c, hint, { path: "/", secure, sameSite: "Lax" });
}

/**
 * Sign-up and sign-in answer the token in JSON (scripts) and, for a request from this site's pages or with no
 * Origin at all, set the cookie too. Another origin (one ALLOWED_ORIGINS lets call) gets the token only.
 */
export function offerSessionCookie(c: Context<AppEnv>, token: string) {
  if (c.req.header("origin") === undefined || fromOwnOrigin(c)) setSessionCookie(c, token);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The request came from this site's own pages: its Origin, or where there is none, Sec-Fetch-Site. */
export function fromOwnOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined) return origin === new URL(c.req.url).origin || origin === publicOrigin(c.env, c.req.url);
  const site = c.req.header("sec-fetch-site");
  // "none": the person typed or bookmarked it. A browser that sends neither header is older than SameSite=Lax's
  // defaults too; refuse rather than guess.
  return site === "same-origin" || site === "none";
}

/**
 * Cross-site request forgery: a cookie rides along on any request the browser makes, so a change (any method
 * but GET, HEAD and OPTIONS) or a WebSocket upgrade that a cookie authenticated must come from this site's own
 * pages: 403 `forbidden_origin` otherwise. A bearer token is never sent by a browser on its own, so a request that
 * shows one passes. Runs after `requireSession`, which says how the request was authenticated.
 */
export const refuseForeignCookieRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  const changes = !SAFE_METHODS.has(c.req.method) || c.req.header("upgrade")?.toLowerCase() === "websocket";
  if (c.var.sessionVia === "cookie" && changes && !fromOwnOrigin(c)) {
    throw new AppError(
      "forbidden_origin",
      "This request carries the page's session cookie but does not come from this site's pages.",
    );
  }
  await next();
};
