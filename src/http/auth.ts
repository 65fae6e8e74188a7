import type { Context, MiddlewareHandler } from "hono";
import { authenticateApiKey, requireMax } from "../domain/api-keys/service";
import { authenticateSession } from "../domain/accounts/service";
import type { AppEnv } from "../env";
import { failedKeyAttempt, limitApiKey } from "./rate-limit";

/** The credential of an `Authorization: Bearer <credential>` header; shared with /mcp. */
export const bearerFromHeader = (header: string | null | undefined) => /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "")?.[1];

export const bearerToken = (c: Context) => bearerFromHeader(c.req.header("authorization"));

/**
 * API key → account → membership, on every request (no cache, so revocation and lapses
 * apply to the next request). Runs before body validation and lookups: 401, then 403.
 */
export const requireApiKey = (options: { max: boolean }): MiddlewareHandler<AppEnv> => async (c, next) => {
  // "/tasks/*" also matches "/tasks": authenticate (and count against the rate limit) once.
  if (c.var.actor) return next();
  const { actor, touch } = await authenticateApiKey(c.var.db, bearerToken(c)).catch((e) => failedKeyAttempt(c.env, c.req.raw, e));
  // lastUsedAt is refreshed at most once a minute, after the response is on its way.
  if (touch) c.executionCtx.waitUntil(touch().catch(() => undefined));
  const rateHeaders = await limitApiKey(c.env, actor.keyId ?? actor.accountId);
  if (options.max) requireMax(actor);
  c.set("actor", actor);
  await next();
  for (const [name, value] of Object.entries(rateHeaders)) c.header(name, value);
};

/** Session token from POST /auth/login or /auth/signup; API keys are refused here. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await authenticateSession(c.var.db, bearerToken(c));
  c.set("sessionId", session.sessionId);
  c.set("actor", { accountId: session.accountId, maxActive: false, timeZone: "UTC" });
  await next();
};
