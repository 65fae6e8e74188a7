import type {
  OAuthHelpers,
  OAuthProvider,
  OAuthProviderOptions,
  TokenExchangeCallbackOptions,
} from "@cloudflare/workers-oauth-provider";
import { toAppError } from "../transport/app-error";
import type { OAuthGrant } from "../transport/grant";
import { createDb } from "../control/db";
import { CONNECTION_IDLE_DAYS, useConnectionForRefresh } from "../control/connections/service";
import { AppError } from "../domain/errors";
import { problemResponseFor } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { clientIp, consume, RATE_POLICIES, withRateHeaders } from "../transport/rate-limit";
import { MCP_PATH } from "../transport/mcp-path";
import { OAUTH_ENDPOINTS, PROTECTED_RESOURCE_ROOT, protectedResourceMetadataPath } from "../transport/oauth-paths";
import { handleTokenRequest } from "./token-endpoint";
import { reportProviderError } from "./provider-reports";
import { registrationRefusal, withPlainClientName } from "./registration";
import { SCOPES } from "../transport/scopes";
import { loadOAuthProvider } from "../lazy/load";

// The library is a module of its own (src/lazy/load.ts), loaded with this one: only OAuth requests wait for it.
const library = await loadOAuthProvider();
export const { AuthorizationError, authorizationErrorRedirect, CimdFetchError } = library;

/**
 * OAuth 2.1 for /mcp with @cloudflare/workers-oauth-provider in one-Worker mode (`OAuthProvider`):
 * discovery documents, dynamic client registration, Client ID Metadata Documents, the token and
 * revocation endpoint, and access-token validation on /mcp, all the library's. Ours: the authorize page
 * (authorize.ts, in the Hono app, the provider's defaultHandler), the scopes, and the D1 connection row
 * that every OAuth request and every refresh checks (revocation, docs/security.md).
 *
 * This module loads only for /oauth/*, /.well-known/oauth-* and /mcp with an OAuth token (src/index.ts):
 * REST and key requests never evaluate the library.
 */

/**
 * What a grant carries to /mcp (encrypted in KV by the provider): the D1 row that decides if it holds,
 * and for an access token from a refresh, the connection's refresh count then (refresh-tokens.ts).
 */
export interface GrantProps {
  connectionId: string;
  generation?: number;
}

const DAY = 86_400;
/** The baseline header of every other answer (src/http/security-headers.ts), on the provider's too. */
const withNosniff = (response: Response) =>
  response.headers.has("X-Content-Type-Options")
    ? response
    : withRateHeaders(response, { "X-Content-Type-Options": "nosniff" });

/** How a request reaches the rest of the Worker: the Hono app, or /mcp's handler. */
export type Handler = ExportedHandler<Env> & { fetch: NonNullable<ExportedHandler<Env>["fetch"]> };

/**
 * The token endpoint's refresh and code exchange ask D1 whether the connection still holds (and record
 * the use): a revoked connection's refresh token fails at once in every location, though KV may still
 * hold its grant for up to a minute. `invalid_grant` also makes the provider drop the grant.
 */
async function checkConnection({ grantType, userId, props, env }: TokenExchangeCallbackOptions<Env>) {
  if (grantType !== "authorization_code" && grantType !== "refresh_token") return;
  const { connectionId } = (props ?? {}) as Partial<GrantProps>;
  const use = connectionId ? await useConnectionForRefresh(createDb(env.DB), userId, connectionId) : undefined;
  if (!connectionId || !use)
    throw new library.OAuthError("invalid_grant", { description: "This connection was revoked." });
  // The grant keeps its props; the new access token also names the refresh it came from.
  if (grantType === "refresh_token")
    return { accessTokenProps: { connectionId, generation: use.generation } satisfies GrantProps };
}

function optionsFor(origin: string, defaultHandler: Handler): OAuthProviderOptions<Env> {
  const mcpApiHandler: Handler = {
    fetch: async (request, env, ctx) => {
      const { handleMcp } = await import("../mcp/handler");
      return handleMcp(request, env, ctx, grantOf(ctx));
    },
  };
  return {
    apiHandlers: { [MCP_PATH]: mcpApiHandler },
    defaultHandler,
    authorizeEndpoint: `${origin}${OAUTH_ENDPOINTS.authorize}`,
    tokenEndpoint: `${origin}${OAUTH_ENDPOINTS.token}`,
    clientRegistrationEndpoint: `${origin}${OAUTH_ENDPOINTS.register}`,
    scopesSupported: [...SCOPES],
    // No requiredScopes: a client that asks for no scope gets both after consent (scopes.ts).
    resourceMetadata: {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      resource_name: "Todo & Calendars",
    },
    accessTokenTTL: 3600,
    // A connection lives while its client refreshes at least every 30 days (the account page lists it that long).
    refreshTokenTTL: CONNECTION_IDLE_DAYS * DAY,
    refreshTokenIdleTTL: CONNECTION_IDLE_DAYS * DAY,
    clientIdMetadataDocumentEnabled: true,
    tokenExchangeCallback: checkConnection,
    clientRegistrationCallback: registrationRefusal,
    onError: ({ status, headers, internal, description }) => {
      reportProviderError(internal);
      if (status >= 500) console.error("oauth error", status, internal.category, internal.reason);
      // /mcp answers 401 as problem+json, whoever refused the token; the challenge stays the provider's.
      if (internal.category !== "protected-resource") return;
      const response = problemResponseFor(
        origin,
        new AppError(status === 401 ? "unauthorized" : "unavailable", `${description}. Connect the app again.`),
        headers,
      );
      if (headers["WWW-Authenticate"]) response.headers.set("WWW-Authenticate", headers["WWW-Authenticate"]);
      return response;
    },
  };
}

function grantOf(ctx: ExecutionContext): OAuthGrant {
  const { props, auth } = ctx as ExecutionContext & {
    props?: Partial<GrantProps>;
    auth?: { userId?: string; scope?: string[] };
  };
  // Unreachable without both: the provider sets them for every token it accepts.
  if (!props?.connectionId || !auth?.userId) throw new AppError("unauthorized", "The access token carries no grant.");
  return {
    accountId: auth.userId,
    connectionId: props.connectionId,
    generation: props.generation ?? 0,
    scopes: [...(auth.scope ?? [])],
  };
}

/**
 * One provider per public origin (its resource is `<origin>/mcp`, fixed at construction): one in
 * production (PUBLIC_ORIGIN), the local host in development. `undefined` where the library refuses the
 * origin: plain http off loopback (OAuth 2.1 needs https), e.g. the test suite's http://example.com.
 */
const providers = new Map<string, OAuthProvider<Env> | null>();
const helpers = new WeakMap<Env, Map<string, OAuthHelpers>>();
// `wrangler dev` takes Host from the client: a bounded cache, so made-up hosts cannot grow it.
const MAX_ORIGINS = 16;

function remember<T>(map: Map<string, T>, origin: string, value: T): T {
  if (map.size >= MAX_ORIGINS) map.clear();
  map.set(origin, value);
  return value;
}

/** The Hono app (src/index.ts hands it over): the provider's defaultHandler, serving /oauth/authorize. */
let app: Handler | undefined;
const defaultHandler: Handler = {
  fetch: (request, env, ctx) => {
    if (!app) throw new Error("OAuth request before handleOAuth() was given the app");
    return app.fetch(request, env, ctx);
  },
};

function providerFor(origin: string): OAuthProvider<Env> | undefined {
  let provider = providers.get(origin);
  if (provider === undefined) {
    try {
      provider = new library.OAuthProvider<Env>(optionsFor(origin, defaultHandler));
    } catch {
      provider = null;
    }
    remember(providers, origin, provider);
  }
  return provider ?? undefined;
}

/**
 * The provider's helpers (parse and complete an authorization, consent, revoke a grant) for this
 * origin, or undefined where OAuth is not served (see providerFor).
 */
export function oauthApi(env: Env, origin: string): OAuthHelpers | undefined {
  if (!providerFor(origin)) return undefined;
  let byOrigin = helpers.get(env);
  if (!byOrigin) {
    byOrigin = new Map();
    helpers.set(env, byOrigin);
  }
  return (
    byOrigin.get(origin) ?? remember(byOrigin, origin, library.getOAuthApi(optionsFor(origin, defaultHandler), env))
  );
}

// revokeGrant() touches only KV keys named by user and grant, whatever origin the helpers were made for.
const ANY_ORIGIN = "http://localhost";

/** Revokes grants in KV (clean-up: D1 has already ended them). Never throws. */
export async function revokeGrants(env: Env, origin: string, accountId: string, grantIds: string[]): Promise<void> {
  const api = oauthApi(env, origin) ?? oauthApi(env, ANY_ORIGIN);
  if (!api) return;
  await Promise.all(grantIds.map((id) => api.revokeGrant(id, accountId))).catch((e) =>
    console.error("grant revocation in KV failed", e instanceof Error ? e.message : String(e)),
  );
}

/** Every OAuth request, and /mcp with an OAuth token: the provider, with our rules around it. */
export async function handleOAuth(
  request: Request<unknown, IncomingRequestCfProperties>,
  env: Env,
  ctx: ExecutionContext,
  honoApp: Handler,
): Promise<Response> {
  app ??= honoApp;
  const origin = publicOrigin(env, request.url);
  try {
    const provider = providerFor(origin);
    const { pathname } = new URL(request.url);
    if (!provider) {
      // No OAuth on this origin: /mcp says 401 with the usual challenge, the rest is the app's 404.
      if (pathname !== MCP_PATH) return await honoApp.fetch(request, env, ctx);
      const { handleMcp } = await import("../mcp/handler");
      return await handleMcp(request, env, ctx);
    }
    // RFC 9728's document for <origin>/mcp, also where clients look first: the root well-known path.
    // Any other resource's metadata: the app's problem+json 404 (the provider's has no body).
    if (pathname.startsWith(`${PROTECTED_RESOURCE_ROOT}/`) && pathname !== protectedResourceMetadataPath())
      return await honoApp.fetch(request, env, ctx);
    if (pathname === PROTECTED_RESOURCE_ROOT) {
      const metadata = new Request(`${origin}${protectedResourceMetadataPath()}`, request);
      return withNosniff(await provider.fetch(metadata as typeof request, env, ctx));
    }
    let forwarded = request;
    if (pathname === OAUTH_ENDPOINTS.register && request.method === "POST") {
      await consume(env, RATE_POLICIES.perIp, `register:${clientIp(request)}`, "client registrations per client IP");
      forwarded = (await withPlainClientName(request)) as typeof request;
    }
    if (pathname === OAUTH_ENDPOINTS.token && request.method === "POST") {
      const oauth = oauthApi(env, origin) as OAuthHelpers;
      return withNosniff(await handleTokenRequest(request, env, ctx, provider, oauth));
    }
    return withNosniff(await provider.fetch(forwarded, env, ctx));
  } catch (e) {
    return problemResponseFor(origin, toAppError(e), { "Cache-Control": "no-store" });
  }
}
