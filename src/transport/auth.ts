import type { Hook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type AccountCaller, runVerb } from "../control/caller";
import { UNAUTHORIZED } from "../object/credentials";
import { accountOfUnsignedKey } from "../control/key-directory";
import type { VerbArgs, VerbName, VerbValue } from "../object/verbs";
import { checkedKey } from "../control/api-keys/service";
import { authenticateSession } from "../control/accounts/service";
import { sha256Hex, timingSafeEqual } from "../domain/crypto";
import { AppError } from "../domain/errors";
import type { AppEnv } from "./env";
import { failedKeyAttempt, limitApiKey, type RateHeaders } from "./rate-limit";
import { defaultHook } from "./validation";
import { sessionFromCookie, setSessionCookie } from "./session-cookie";

/** The credential of an `Authorization: Bearer <credential>` header; shared with /mcp. */
export const bearerFromHeader = (header: string | null | undefined) => /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "")?.[1];

/**
 * The request's credential: its Authorization header, or, on a WebSocket upgrade only (a browser cannot
 * set headers there), the subprotocol `todo.bearer.<credential>` it offers (GET /api/v1/stream). Never
 * the URL, which logs and histories keep.
 */
export const bearerToken = (c: Context) =>
  bearerFromHeader(c.req.header("authorization")) ?? bearerFromSubprotocol(c.req.raw.headers);

export const bearerFromSubprotocol = (headers: Headers) =>
  headers.get("upgrade")?.toLowerCase() === "websocket"
    ? /(?:^|,)\s*todo\.bearer\.([^\s,]+)/.exec(headers.get("sec-websocket-protocol") ?? "")?.[1]
    : undefined;

/**
 * An API key as an account caller: format, checksum and MAC (no I/O; a forged key is refused and counted
 * against its IP here, before any object call), the per-key rate limit, then the account: the one a signed
 * key names, or for an older key the one D1's directory knows its hash for (key-directory.ts). Whether the
 * key is live, and the account's Max, are judged by the account's object in the request's one call.
 * Shared by REST and MCP.
 */
export async function keyCaller(
  env: Env,
  request: Request,
  key: string | undefined,
): Promise<{ caller: AccountCaller; keyHash: string; rateHeaders: RateHeaders }> {
  const { parsed, keyHash } = await checkedKey(env, key).catch((e) => failedKeyAttempt(env, request, e));
  const rateHeaders = await limitApiKey(env, keyHash);
  const accountId = parsed.format === "signed" ? parsed.accountId : await accountOfUnsignedKey(env, parsed, keyHash);
  if (!accountId) await failedKeyAttempt(env, request, new AppError("unauthorized", UNAUTHORIZED));
  return { caller: { env, accountId: accountId!, credential: { kind: "key", keyHash } }, keyHash, rateHeaders };
}

/** API_KEY routes: the request's key as its caller (keyCaller); the RateLimit headers go on its answer. */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { caller, rateHeaders } = await keyCaller(c.env, c.req.raw, bearerToken(c));
  c.set("caller", caller);
  await next();
  for (const [name, value] of Object.entries(rateHeaders)) c.header(name, value);
};

/**
 * Runs a verb for the request's caller, as its access's guard set it (`requireApiKey`, `requireSession`):
 * one call to its account's object, where 401 (unknown, revoked or expired key) and 403 (no active Max)
 * are judged before the verb runs. A key's failure also counts against the client's IP.
 */
export const runFor = <V extends VerbName>(c: Context<AppEnv>, verb: V, args: VerbArgs<V>): Promise<VerbValue<V>> =>
  runVerb(c.var.caller, verb, args).catch((e) =>
    c.var.caller.credential.kind === "key" ? failedKeyAttempt(c.env, c.req.raw, e) : Promise.reject(e),
  );

/**
 * Before a request is refused for its input: the caller judged by its object, so that a caller who is
 * not allowed in hears 401/403, never 400 (credentials are judged before input).
 */
export async function authenticateCaller(c: Context<AppEnv>): Promise<void> {
  await runFor(c, "authenticate", undefined as never);
}

/** Validation hook of the routes that call an account's object (API_KEY, SESSION_TASKS): `authenticateCaller`, then the validation error. */
export function authenticateBeforeRejecting<T>(
  result: Parameters<Hook<T, AppEnv, string, unknown>>[0],
  c: Context<AppEnv>,
): Promise<never> | undefined {
  if (result.success) return undefined;
  return (async () => {
    await authenticateCaller(c);
    defaultHook(result, c);
    throw new Error("unreachable: defaultHook throws on a failed validation");
  })();
}

/**
 * Session token from POST /auth/login or /auth/signup, as a bearer token (scripts) or the pages' cookie
 * (session-cookie.ts); a bearer header wins. API keys are refused here. The session's account is also the
 * request's caller: its object checks Max on every task call (403 `max_required`), so a lapse applies at once.
 * A refresh (at most once a minute) starts the session's 30 days again, and sends the cookie again with them.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = bearerToken(c);
  const token = bearer ?? sessionFromCookie(c);
  const session = await authenticateSession(c.var.db, token);
  const via = bearer ? "bearer" : "cookie";
  if (session.touch) {
    c.executionCtx.waitUntil(session.touch().catch(() => undefined));
    if (via === "cookie") setSessionCookie(c, token!);
  }
  c.set("sessionVia", via);
  c.set("sessionId", session.sessionId);
  c.set("sessionExpiresAt", session.expiresAt);
  c.set("caller", { env: c.env, accountId: session.accountId, credential: { kind: "session" } });
  await next();
};

/** Operator routes: the ADMIN_TOKEN secret as a bearer token. Without the secret they do not exist (404). */
export const requireAdminToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new AppError("not_found", "No such route.");
  const given = bearerToken(c) ?? "";
  // Compare digests so neither length nor content leaks through timing.
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
  if (!timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b))) {
    throw new AppError("unauthorized", "The admin token is missing or wrong.");
  }
  await next();
};
