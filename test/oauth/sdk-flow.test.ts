import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, it } from "vitest";
import { maxUser } from "../helpers";
import { fetchWorker, MCP, mcpCall, mcpClient, ORIGIN, REDIRECT, signInOnAuthorizePage, decide } from "./support";

/**
 * A client that knows only <origin>/mcp, driven by the MCP TypeScript SDK's own OAuth support
 * (`auth()` with an OAuthClientProvider): 401 → discovery → registration → authorize → token →
 * tools/call → refresh. The consent step, a browser's part, goes through the authorize page's HTTP forms.
 */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "SDK Test Agent",
    redirect_uris: [REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  state() {
    return "sdk-state";
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}

const fetchFn = (url: string | URL, init?: RequestInit) => fetchWorker(url, init);

describe("the MCP SDK's OAuth client, from a bare URL to tool calls and a refresh", () => {
  it("discovers, registers, signs in, consents, calls tools and refreshes", async () => {
    const user = await maxUser("sdk-oauth");

    // 1. No credential: 401 problem+json whose challenge names the resource metadata.
    const challenged = await mcpCall(undefined, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get("content-type")).toBe("application/problem+json");
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(challenged);
    expect(resourceMetadataUrl?.href).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);

    // 2. Discovery and dynamic registration, up to the authorization URL.
    const provider = new MemoryProvider();
    expect(await auth(provider, { serverUrl: MCP, resourceMetadataUrl, fetchFn })).toBe("REDIRECT");
    expect(provider.client?.client_id).toBeTruthy();
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/oauth/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(MCP);

    // 3. The user signs in and allows, on the authorize page.
    const consent = await signInOnAuthorizePage(url.href, user);
    expect(consent.html).toContain("SDK Test Agent");
    expect(consent.html).toContain("client.example");
    const redirected = await decide(url.href, consent, "allow");
    expect(redirected.status).toBe(302);
    const back = new URL(redirected.headers.get("location")!);
    expect(back.searchParams.get("state")).toBe("sdk-state");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);

    // 4. Code exchange.
    expect(await auth(provider, { serverUrl: MCP, authorizationCode: back.searchParams.get("code")!, fetchFn })).toBe(
      "AUTHORIZED",
    );
    const first = provider.saved!;
    expect(first.scope?.split(" ").sort()).toEqual(["tasks:read", "tasks:write"]);
    expect(first.refresh_token).toBeTruthy();

    // 5. Every tool the scopes allow, through the official client.
    const client = await mcpClient(first.access_token);
    expect((await client.listTools()).tools).toHaveLength(7);
    const created = await client.callTool({ name: "create_task", arguments: { title: "Via OAuth" } });
    expect(created.isError).toBeFalsy();
    const listed = await client.callTool({ name: "list_tasks", arguments: {} });
    expect((listed.structuredContent as { tasks: { title: string }[] }).tasks.map((t) => t.title)).toEqual([
      "Via OAuth",
    ]);
    await client.close();

    // 6. Refresh: a new access token (and refresh token) that works.
    expect(await auth(provider, { serverUrl: MCP, fetchFn })).toBe("AUTHORIZED");
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const again = await mcpClient(second.access_token);
    const after = await again.callTool({ name: "list_tasks", arguments: {} });
    expect((after.structuredContent as { count: number }).count).toBe(1);
    await again.close();
  });
});
