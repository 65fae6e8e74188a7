import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src";
import { rateWindow } from "../support/rate-window";

/**
 * OAuth needs https (or loopback http): these tests call the Worker at https://example.com, where the
 * rest of the suite uses http://example.com (no OAuth there, see src/oauth/provider.ts).
 */
export const ORIGIN = "https://example.com";
export const MCP = `${ORIGIN}/mcp`;
export const REDIRECT = "https://client.example/callback";

export const fetchWorker = (input: string | URL | Request, init?: RequestInit) =>
  exports.default.fetch(new Request(input, init));

/** The real Worker with its rate limits on (the suite runs with them off), from a given client IP. */
export async function limited(url: string, init: RequestInit & { ip: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", init.ip);
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(url, { ...init, headers }) as Request<unknown, IncomingRequestCfProperties>,
    { ...env, RATE_LIMITS: "on", ...rateWindow() } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** A JSON-RPC POST to /mcp, as the spec shows it. */
export function mcpCall(token: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return fetchWorker(MCP, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** The official MCP client on an OAuth access token. */
export async function mcpClient(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: fetchWorker,
  });
  const client = new Client({ name: "vitest-oauth", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

/** Dynamic client registration of a public client (what MCP hosts do). */
export async function registerClient(name = "Vitest Agent", redirectUris = [REDIRECT]): Promise<string> {
  const res = await fetchWorker(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

export interface AuthorizeParams {
  clientId: string;
  challenge: string;
  redirectUri?: string;
  scope?: string;
  state?: string;
  resource?: string;
}

export function authorizeUrl(p: AuthorizeParams): string {
  const url = new URL(`${ORIGIN}/oauth/authorize`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", p.clientId);
  url.searchParams.set("redirect_uri", p.redirectUri ?? REDIRECT);
  url.searchParams.set("code_challenge", p.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", p.state ?? "state-123");
  url.searchParams.set("resource", p.resource ?? MCP);
  if (p.scope !== undefined) url.searchParams.set("scope", p.scope);
  return url.toString();
}

const form = (fields: Record<string, string>) => ({
  "Content-Type": "application/x-www-form-urlencoded",
  body: new URLSearchParams(fields).toString(),
});

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll("&#45;", "-");

export interface ConsentStep {
  html: string;
  handle: string;
  ticket: string;
  cookie: string;
}

/** The authorize page's sign-in step, as a browser posts it: the consent page, its handle and binding cookie. */
export async function signInOnAuthorizePage(
  url: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<ConsentStep> {
  const shown = await fetchWorker(url);
  expect(shown.status, await shown.clone().text()).toBe(200);
  const { body, ...type } = form({ step: "sign-in", ...credentials });
  const res = await fetchWorker(url, {
    method: "POST",
    headers: { ...type, Origin: ORIGIN, ...headers },
    body,
    redirect: "manual",
  });
  const html = await res.text();
  expect(res.status, html).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { html, handle: hidden(html, "handle")!, ticket: hidden(html, "ticket")!, cookie };
}

/** Allow or Deny on the consent page: the redirect back to the client. */
export async function decide(url: string, step: ConsentStep, decision: "allow" | "deny"): Promise<Response> {
  const { body, ...type } = form({ step: "consent", handle: step.handle, ticket: step.ticket, decision });
  return fetchWorker(url, {
    method: "POST",
    headers: { ...type, Origin: ORIGIN, Cookie: step.cookie },
    body,
    redirect: "manual",
  });
}

/** Sign-in and Allow: the redirect's query (code, state, iss). */
export async function authorize(
  url: string,
  credentials: { email: string; password: string },
): Promise<URLSearchParams> {
  const res = await decide(url, await signInOnAuthorizePage(url, credentials), "allow");
  expect(res.status, await res.clone().text()).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}

export async function tokenRequest(fields: Record<string, string>): Promise<Response> {
  const { body, ...type } = form(fields);
  return fetchWorker(`${ORIGIN}/oauth/token`, { method: "POST", headers: type, body });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  token_type: string;
  expires_in: number;
}

/** Registration, sign-in, consent and code exchange, end to end: the tokens and the client id. */
export async function connect(
  credentials: { email: string; password: string },
  options: { scope?: string; name?: string } = {},
): Promise<Tokens & { clientId: string }> {
  const clientId = await registerClient(options.name);
  const { verifier, challenge } = await pkce();
  const query = await authorize(authorizeUrl({ clientId, challenge, scope: options.scope }), credentials);
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code: query.get("code")!,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: MCP,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { ...((await res.json()) as Tokens), clientId };
}
