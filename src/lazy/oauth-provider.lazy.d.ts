// src/lazy/oauth-provider.lazy.js: the OAuth provider library, for OAuth requests and /mcp with an OAuth token
// (src/oauth/provider.ts).
export {
  AuthorizationError,
  authorizationErrorRedirect,
  CimdFetchError,
  getOAuthApi,
  OAuthError,
  OAuthProvider,
} from "@cloudflare/workers-oauth-provider";
