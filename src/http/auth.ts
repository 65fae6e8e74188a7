import type { Hook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type KeyAuthentication, verifiedKeyHash } from "../domain/api-keys/service";
import { type Caller, judge, type Outcome } from "../domain/tasks/statements";
import { authenticateSession } from "../domain/accounts/service";
import { sha256Hex, timingSafeEqual } from "../domain/crypto";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../env";
import { failedKeyAttempt, limitApiKey } from "./rate-limit";
import { defaultHook } from "./validation";

/** The credential of an `Authorization: Bearer <credential>` header; shared with /mcp. */
export const bearerFromHeader = (header: string | null | undefined) => /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "")?.[1];

export const bearerToken = (c: Context) => bearerFromHeader(c.req.header("authorization"));

/** After a key was found live: refresh lastUsedAt (at most once a minute, off the hot path). */
export function acceptKey(c: Context<AppEnv>, auth: KeyAuthentication | undefined) {
  if (!auth) return;
  if (auth.touch) c.executionCtx.waitUntil(auth.touch().catch(() => undefined));
  c.set("actor", auth.actor);
}

/**
 * Task routes: the API key's format and checksum are checked here (no database), and the per-key
 * rate limit is counted by the key's hash. The lookup itself (key → account → membership, on
 * every request, no cache) runs inside the route's own D1 batch: see `asKeyCaller`.
 */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const keyHash = await verifiedKeyHash(bearerToken(c)).catch((e) => failedKeyAttempt(c.env, c.req.raw, e));
  const rateHeaders = await limitApiKey(c.env, keyHash);
  c.set("keyHash", keyHash);
  await next();
  for (const [name, value] of Object.entries(rateHeaders)) c.header(name, value);
};

/**
 * Runs a task verb for the request's API key: 401 (unknown, revoked or expired key) and 403
 * (no active Max) come from the verb's own batch, before any of its results are used.
 */
export async function asKeyCaller<T>(c: Context<AppEnv>, verb: (caller: Caller) => Promise<Outcome<T>>): Promise<T> {
  const outcome = await verb({ db: c.var.db, keyHash: c.var.keyHash }).catch((e) =>
    failedKeyAttempt(c.env, c.req.raw, e),
  );
  acceptKey(c, outcome.auth);
  return outcome.value;
}

/**
 * Before a task request is refused for its input: the key's own lookup, so that a caller who is
 * not allowed in hears 401/403, never 400 (credentials are judged before input). Only refused
 * requests pay this round trip; a valid one is judged inside its verb's batch.
 */
export async function judgeKey(c: Context<AppEnv>): Promise<void> {
  const auth = await judge({ db: c.var.db, keyHash: c.var.keyHash }).catch((e) =>
    failedKeyAttempt(c.env, c.req.raw, e),
  );
  acceptKey(c, auth);
}

/** Validation hook of the task routes: `judgeKey`, then the validation error. */
export function authenticateBeforeRejecting<T>(
  result: Parameters<Hook<T, AppEnv, string, unknown>>[0],
  c: Context<AppEnv>,
): Promise<never> | undefined {
  if (result.success) return undefined;
  return (async () => {
    await judgeKey(c);
    defaultHook(result, c);
    throw new Error("unreachable: defaultHook throws on a failed validation");
  })();
}

/** Session token from POST /auth/login or /auth/signup; API keys are refused here. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await authenticateSession(c.var.db, bearerToken(c));
  if (session.touch) c.executionCtx.waitUntil(session.touch().catch(() => undefined));
  c.set("sessionId", session.sessionId);
  c.set("actor", { accountId: session.accountId, maxActive: false, timeZone: "UTC" });
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
