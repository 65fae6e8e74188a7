import type { AuthInfo } from "@modelcontextprotocol/server";
import { type AccountCaller, runVerb } from "../control/caller";
import type { VerbArgs, VerbName, VerbValue } from "../object/verbs";
import { isAppError } from "../domain/errors";
import { bearerFromHeader, keyCaller } from "../transport/auth";
import { consume, failedKeyAttempt, limitApiKey, RATE_POLICIES, type RateHeaders } from "../transport/rate-limit";
import type { OAuthGrant } from "../transport/grant";
import { requireToolScopes } from "./tool-scopes";

/**
 * The two credentials /mcp takes, judged the same way by handler.ts: an API key (as on REST) or an OAuth
 * access token the provider has validated. Either way the account's object judges it, in the call of
 * the tool's verb; a request whose tools ran no verb asks the object once before its answer leaves.
 * What the handler holds for the request, not what the object judges: that is the TaskCredential
 * (object/credentials.ts) inside its caller.
 */
export interface McpCredential {
  /** Runs a verb for the credential's account (one call to its object), remembering the judgement. */
  call<V extends VerbName>(verb: V, args: VerbArgs<V>): Promise<VerbValue<V>>;
  authInfo: Omit<AuthInfo, "extra">;
  rateHeaders: RateHeaders;
  /** One more request against the credential's rate limit (each message of a batch). */
  count(): Promise<RateHeaders>;
  /** Before the answer leaves: throws 401 unless the object has found the credential live. */
  confirm(response: Response): Promise<void>;
  /** Throws 403 when the body calls a tool the credential may not use. */
  permits(body: unknown): void;
}

/**
 * A caller whose object's judgement is remembered: a verb that ran (or failed for its own reasons)
 * proves the credential live; a 401 proves it refused. Only a request that learned neither asks.
 */
function rememberingAuthentication(caller: AccountCaller, request: Request) {
  let verdict: "live" | "refused" | undefined;
  const call = async <V extends VerbName>(verb: V, args: VerbArgs<V>): Promise<VerbValue<V>> => {
    try {
      const value = await runVerb(caller, verb, args);
      verdict = "live";
      return value;
    } catch (e) {
      if (isAppError(e) && e.code === "unauthorized") verdict = "refused";
      else if (isAppError(e)) verdict ??= "live";
      throw e;
    }
  };
  const confirm = async (response: Response) => {
    if (verdict === "live") return;
    await call("identify", undefined).catch(async (e) => {
      await response.body?.cancel();
      return failedKeyAttempt(caller.env, request, e);
    });
  };
  return { call, confirm };
}

/** An API key: format and checksum (no I/O), the per-key rate limit, then its account object's judgement. */
export async function keyCredential(request: Request, env: Env): Promise<McpCredential> {
  const key = bearerFromHeader(request.headers.get("authorization"));
  const { caller, keyHash, rateHeaders } = await keyCaller(env, request, key);
  return {
    ...rememberingAuthentication(caller, request),
    rateHeaders,
    authInfo: { token: key!, clientId: `key:${keyHash.slice(0, 16)}`, scopes: [] },
    count: () => limitApiKey(env, keyHash),
    permits: () => undefined,
  };
}

/**
 * An OAuth access token the provider has validated (KV: the token, its expiry and audience): the
 * connection's rate limit (the per-key budget), then its account's object judges whether the connection
 * still holds and whether the account has Max. The token's scopes decide which tools it may call.
 */
export async function grantCredential(request: Request, env: Env, grant: OAuthGrant): Promise<McpCredential> {
  const count = () => consume(env, RATE_POLICIES.perKey, `connection:${grant.connectionId}`, "requests per connection");
  const caller: AccountCaller = {
    env,
    accountId: grant.accountId,
    credential: { kind: "connection", connectionId: grant.connectionId, generation: grant.generation },
  };
  return {
    ...rememberingAuthentication(caller, request),
    rateHeaders: await count(),
    authInfo: {
      token: bearerFromHeader(request.headers.get("authorization"))!,
      clientId: `connection:${grant.connectionId}`,
      scopes: grant.scopes,
    },
    count,
    permits: (body) => requireToolScopes(body, grant.scopes),
  };
}
