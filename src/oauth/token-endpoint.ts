import type { OAuthHelpers, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { createDb, type Db } from "../control/db";
import {
  claimRefresh,
  completeRefresh,
  REFRESH_GRACE_SECONDS,
  recordFirstRefreshToken,
  refreshTokenHash,
  releaseRefresh,
} from "../control/connections/refresh-tokens";
import { changeAccount } from "../control/account-client";
import { revokeConnectionOfGrant } from "../control/connections/service";
import { withProviderReports } from "./provider-reports";
import { screenTokenRequest, tokenError, tokenForm } from "./token-request";

/**
 * POST /oauth/token: the provider answers (code exchange, refresh, RFC 7009 revocation); around it, the
 * connection rows in D1 follow what happened to the grant:
 * - a code exchange records the grant's first refresh token; a replayed code (the provider ends the
 *   grant) ends the connection;
 * - a refresh runs under reuse detection (src/control/connections/refresh-tokens.ts);
 * - a client revoking its own grant ends the connection.
 * Every connection ends through revokeConnectionOfGrant, the one way a grant's connection is revoked.
 */

type Provider = Pick<OAuthProvider<Env>, "fetch">;

/** `<user>:<grant>:<secret>`, the provider's codes and tokens alike. */
function partsOf(token: string | null | undefined): { accountId: string; grantId: string } | undefined {
  const [accountId, grantId, secret, extra] = (token ?? "").split(":");
  return accountId && grantId && secret && extra === undefined ? { accountId, grantId } : undefined;
}

async function issuedRefreshToken(response: Response): Promise<string | undefined> {
  if (!response.ok) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { refresh_token?: unknown } | undefined;
  return typeof body?.refresh_token === "string" ? body.refresh_token : undefined;
}

const REUSED = `This refresh token was replaced more than ${REFRESH_GRACE_SECONDS} seconds ago. A replaced refresh token used again ends the connection: connect the app again.`;
const BUSY = "Another refresh of this token is in progress: use the refresh token it returns.";

async function refresh(
  request: Request,
  form: URLSearchParams,
  env: Env,
  ctx: ExecutionContext,
  provider: Provider,
  oauth: OAuthHelpers,
): Promise<Response> {
  const token = form.getAll("refresh_token");
  const parts = token.length === 1 ? partsOf(token[0]) : undefined;
  // Malformed or repeated: the provider's own invalid_request or invalid_grant.
  if (!parts) return provider.fetch(request, env, ctx);
  const db = createDb(env.DB);
  const hash = await refreshTokenHash(token[0]!);
  const claim = await claimRefresh(db, parts.accountId, parts.grantId, hash);
  if (claim.kind === "busy") return tokenError(400, "invalid_grant", BUSY);
  if (claim.kind === "reused") {
    await revokeConnectionOfGrant(db, env, parts.accountId, parts.grantId);
    ctx.waitUntil(oauth.revokeGrant(parts.grantId, parts.accountId).catch(() => undefined));
    return tokenError(400, "invalid_grant", REUSED);
  }
  // Ended: the provider refuses it (tokenExchangeCallback finds the connection revoked).
  if (claim.kind === "ended") return provider.fetch(request, env, ctx);
  try {
    const response = await provider.fetch(request, env, ctx);
    const issued = await issuedRefreshToken(response);
    if (issued) {
      const { retired } = await completeRefresh(db, claim, hash, await refreshTokenHash(issued));
      // The account's object judges every /mcp request: it learns which access tokens are retired.
      if (retired)
        await changeAccount(env, parts.accountId, {
          kind: "connectionGeneration",
          id: claim.connectionId,
          generation: claim.generation,
        });
    } else await releaseRefresh(db, claim.connectionId);
    return response;
  } catch (e) {
    await releaseRefresh(db, claim.connectionId).catch(() => undefined);
    throw e;
  }
}

async function exchangeCode(
  request: Request,
  form: URLSearchParams,
  env: Env,
  ctx: ExecutionContext,
  provider: Provider,
) {
  const { result: response, reasons } = await withProviderReports(() => provider.fetch(request, env, ctx));
  const code = partsOf(form.get("code"));
  const db = createDb(env.DB);
  // The provider has ended the grant of a replayed code: its connection ends too.
  if (code && reasons.includes("authorization-code-grant:code_replayed"))
    await revokeConnectionOfGrant(db, env, code.accountId, code.grantId);
  const issued = await issuedRefreshToken(response);
  const grant = partsOf(issued);
  // The code is spent: a failure here must not cost the client its tokens. Unrecorded, the token is
  // adopted at its first refresh (claimRefresh), as one issued before these rows.
  if (issued && grant)
    await recordFirstRefreshToken(db, grant.accountId, grant.grantId, await refreshTokenHash(issued)).catch((e) =>
      console.error("refresh token not recorded", e instanceof Error ? e.message : String(e)),
    );
  return response;
}

/** RFC 7009: a client that revokes its own refresh token ends the grant; the connection row follows. */
async function followClientRevocation(db: Db, env: Env, token: string | null): Promise<void> {
  const parts = partsOf(token);
  if (!parts) return;
  if ((await env.OAUTH_KV.get(`grant:${parts.accountId}:${parts.grantId}`)) !== null) return;
  await revokeConnectionOfGrant(db, env, parts.accountId, parts.grantId);
}

export async function handleTokenRequest(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  provider: Provider,
  oauth: OAuthHelpers,
): Promise<Response> {
  const form = await tokenForm(request);
  const refused = await screenTokenRequest(request, form, oauth);
  if (refused) return refused;
  const grantType = form?.getAll("grant_type");
  if (form && grantType?.length === 1 && grantType[0] === "refresh_token")
    return refresh(request, form, env, ctx, provider, oauth);
  if (form && grantType?.length === 1 && grantType[0] === "authorization_code")
    return exchangeCode(request, form, env, ctx, provider);
  const response = await provider.fetch(request, env, ctx);
  if (response.ok && form?.has("token"))
    ctx.waitUntil(followClientRevocation(createDb(env.DB), env, form.get("token")).catch(() => undefined));
  return response;
}
