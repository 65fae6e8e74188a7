import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Db } from "../db/client";
import { authenticateKeyHash, type KeyAuthentication, verifiedKeyHash } from "../domain/api-keys/service";
import { authenticateConnection } from "../domain/connections/service";
import type { Caller, KeyCaller } from "../domain/tasks/statements";
import { bearerFromHeader } from "../http/auth";
import { consume, failedKeyAttempt, limitApiKey, RATE_POLICIES, type RateHeaders } from "../http/rate-limit";
import type { OAuthGrant } from "../oauth/provider";
import { requireToolScopes } from "./tool-scopes";

/**
 * The two credentials /mcp takes, judged the same way by handler.ts: an API key (as on REST) or an OAuth
 * access token the provider has validated. Each is counted, checked and confirmed before an answer leaves.
 */

/** How a request's credential is judged: counted, checked, and confirmed before its answer leaves. */
export interface Credential {
  caller: Caller;
  authInfo: Omit<AuthInfo, "extra">;
  /** One more request against the credential's rate limit (each message of a batch). */
  count(): Promise<RateHeaders>;
  /** Before the answer leaves: the credential's verdict (throws 401/403), then `touch` for lastUsedAt. */
  confirm(response: Response): Promise<{ touch?: () => Promise<unknown> }>;
  /** Throws 403 when the body calls a tool the credential may not use. */
  permits(body: unknown): void;
}

/**
 * An API key: format and checksum (no database), the per-key rate limit, then the key's verdict from
 * the task verb's own D1 batch, or a lookup when no verb ran (tools/list, calendars, a bad argument).
 * A statement run for a refused key is scoped to no account, so it reads and writes nothing.
 */
export async function keyCredential(
  request: Request,
  env: Env,
  db: Db,
): Promise<Credential & { rateHeaders: RateHeaders }> {
  const key = bearerFromHeader(request.headers.get("authorization"));
  // Runs on every request, no cache: a revoked key or a lapsed membership applies at once.
  const keyHash = await verifiedKeyHash(key).catch((e) => failedKeyAttempt(env, request, e));
  // The same per-key budget as REST, counted before any D1 work.
  const rateHeaders = await limitApiKey(env, keyHash);
  let verified: KeyAuthentication | undefined;
  const caller: KeyCaller = { db, keyHash, onAuthenticated: (auth) => (verified ??= auth) };
  return {
    rateHeaders,
    caller,
    authInfo: { token: key!, clientId: `key:${keyHash.slice(0, 16)}`, scopes: [] },
    count: () => limitApiKey(env, keyHash),
    confirm: async (response) =>
      verified ??
      (await authenticateKeyHash(db, keyHash).catch(async (e) => {
        await response.body?.cancel();
        return failedKeyAttempt(env, request, e);
      })),
    permits: () => undefined,
  };
}

/**
 * An OAuth access token the provider has validated (KV: the token, its expiry and audience): the
 * connection's rate limit (the per-key budget), then D1, in one statement, says whether the connection
 * still holds and whether the account has Max. The tools then run as that actor; Max is required by
 * the task verbs as for keys (`max_required`). The token's scopes decide which tools it may call.
 */
export async function grantCredential(
  request: Request,
  env: Env,
  db: Db,
  grant: OAuthGrant,
): Promise<Credential & { rateHeaders: RateHeaders }> {
  const count = () => consume(env, RATE_POLICIES.perKey, `connection:${grant.connectionId}`, "requests per connection");
  const rateHeaders = await count();
  const connection = await authenticateConnection(db, grant.accountId, grant.connectionId, grant.generation).catch(
    (e) => failedKeyAttempt(env, request, e),
  );
  return {
    rateHeaders,
    caller: { db, auth: connection },
    authInfo: {
      token: bearerFromHeader(request.headers.get("authorization"))!,
      clientId: `connection:${grant.connectionId}`,
      scopes: grant.scopes,
    },
    count,
    confirm: async () => connection,
    permits: (body) => requireToolScopes(body, grant.scopes),
  };
}
