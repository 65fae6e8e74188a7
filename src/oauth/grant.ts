/** The identity an OAuth access token carries to /mcp (the grant's props, src/oauth/provider.ts). */
export interface OAuthGrant {
  accountId: string;
  connectionId: string;
  scopes: string[];
}
