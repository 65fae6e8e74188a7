import { MCP_PATH } from "./mcp-path";

/**
 * Where OAuth lives, in a module of its own so that src/index.ts can route to it without loading the
 * provider: only these paths, and /mcp with an OAuth access token, evaluate the library.
 */
export const OAUTH_ENDPOINTS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
} as const;

const WELL_KNOWN = "/.well-known/";
/** RFC 9728's root location, where MCP clients look first; it serves the document of <origin>/mcp. */
export const PROTECTED_RESOURCE_ROOT = "/.well-known/oauth-protected-resource";

/** RFC 9728's location of <origin>/mcp's metadata: the well-known prefix, then the resource's path. */
export const protectedResourceMetadataPath = () => `${PROTECTED_RESOURCE_ROOT}${MCP_PATH}`;

/** The OAuth endpoints and the discovery documents (`/.well-known/oauth-authorization-server`, `…-protected-resource…`). */
export const isOAuthPath = (pathname: string) =>
  pathname.startsWith("/oauth/") || pathname.startsWith(`${WELL_KNOWN}oauth-`);

/**
 * A bearer in the provider's token format, `<user>:<grant>:<secret>`. API keys (`todo_live_…`) and
 * session tokens have no colon, so they never match: a key request to /mcp takes the key path, with
 * no KV read and nothing of the provider loaded.
 */
// No comma either: the provider reads a bearer as `[^\s,]+` and answers any other with an empty 401.
export const OAUTH_BEARER = /^Bearer[\t ]+[^\s:,]+:[^\s:,]+:[^\s:,]+$/i;

export const carriesOAuthToken = (request: Request) => {
  const header = request.headers.get("authorization") ?? "";
  // An overlong one is no token of ours: the key path answers it 401, as any other unknown credential.
  return OAUTH_BEARER.test(header) && !oversized(header);
};

/**
 * The longest client id or token (UTF-8 bytes) handed to the provider: it names KV keys with them
 * (`client:<id>`, `token:<user>:<grant>:<hash>`), and KV refuses keys over 512 bytes with an error
 * that would be a 500. Ours are under 100; a Client ID Metadata Document URL under 300 in practice.
 */
export const MAX_OAUTH_ID_BYTES = 400;

export const oversized = (value: string | null | undefined) =>
  value != null && (value.length > MAX_OAUTH_ID_BYTES || new TextEncoder().encode(value).length > MAX_OAUTH_ID_BYTES);
