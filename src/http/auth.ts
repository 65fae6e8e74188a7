import type { Hook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { authenticateKeyHash, type KeyAuthentication, requireMax, verifiedKeyHash } from "../domain/api-keys/service";
import { authenticateSession } from "../domain/accounts/service";
import type { AppEnv } from "../env";
import { failedKeyAttempt, limitApiKey } from "./rate-limit";
import { defaultHook } from "./validation";

/** The credential of an `Authorization: Bearer <credential>` header; shared with /mcp. */
export const bearerFromHeader = (header: string | null | undefined) => /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "")?.[1];

export const bearerToken = (c: Context) => bearerFromHeader(c.req.header("authorization"));

/** Post-authentication duties shared by every key-authenticated route: lastUsedAt, then Max. */
export function acceptKey(c: Context<AppEnv>, auth: KeyAuthentication, options: { max: boolean }) {
  // lastUsedAt is refreshed at most once a minute, after the response is on its way.
  if (auth.touch) c.executionCtx.waitUntil(auth.touch().catch(() => undefined));
  if (options.max) requireMax(auth.actor);
  c.set("actor", auth.actor);
}

/**
 * API key → account → membership, on every request (no cache, so revocation and lapses
 * apply to the next request). Runs before body validation and lookups: 401, then 403.
 * The per-key rate limit is keyed by the key's hash, so it is counted before any D1 work.
 * With `deferred`, only the key's format is checked here and the route runs the lookup in
 * the same D1 batch as its own query (one round trip); it must call `acceptKey` itself.
 */
export const requireApiKey =
  (options: { max: boolean; deferred?: boolean }): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    // "/tasks/*" also matches "/tasks": authenticate (and count against the rate limit) once.
    if (c.var.actor || c.var.keyHash) return next();
    const keyHash = await verifiedKeyHash(bearerToken(c)).catch((e) => failedKeyAttempt(c.env, c.req.raw, e));
    const rateHeaders = await limitApiKey(c.env, keyHash);
    if (options.deferred) c.set("keyHash", keyHash);
    else acceptKey(c, await authenticateKeyHash(c.var.db, keyHash).catch((e) => failedKeyAttempt(c.env, c.req.raw, e)), options);
    await next();
    for (const [name, value] of Object.entries(rateHeaders)) c.header(name, value);
  };

/**
 * Validation hook for routes with a deferred key lookup: a bad request from a caller who is not
 * allowed in is still a 401/403, never a 400 (credentials are judged before input).
 */
export function authenticateBeforeRejecting<T>(
  result: Parameters<Hook<T, AppEnv, string, unknown>>[0],
  c: Context<AppEnv>,
): Promise<never> | undefined {
  if (result.success) return undefined;
  return (async () => {
    if (!c.var.actor) {
      const auth = await authenticateKeyHash(c.var.db, c.var.keyHash).catch((e) => failedKeyAttempt(c.env, c.req.raw, e));
      acceptKey(c, auth, { max: true });
    }
    defaultHook(result, c);
    throw new Error("unreachable: defaultHook throws on a failed validation");
  })();
}

/** Session token from POST /auth/login or /auth/signup; API keys are refused here. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await authenticateSession(c.var.db, bearerToken(c));
  c.set("sessionId", session.sessionId);
  c.set("actor", { accountId: session.accountId, maxActive: false, timeZone: "UTC" });
  await next();
};
