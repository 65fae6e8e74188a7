/** The OAuth identity of an /mcp request, as the provider validated it (the grant's props, src/oauth/provider.ts). */
export interface OAuthGrant {
  accountId: string;
  connectionId: string;
  /** The connection's refresh count when the token was issued; 0 for the code exchange's access token. */
  generation: number;
  scopes: string[];
}
