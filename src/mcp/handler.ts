import type { AuthInfo } from "@modelcontextprotocol/server";
import { loadSdk, sdk } from "./sdk";
import { toAppError } from "../transport/app-error";
import { AppError } from "../domain/errors";
import { bearerFromHeader } from "../transport/auth";
import { originAllowedFor } from "../transport/cors";
import { problemResponseFor } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { withRateHeaders } from "../transport/rate-limit";
import { protectedResourceMetadataPath } from "../transport/oauth-paths";
import type { OAuthGrant } from "../transport/grant";
import { InsufficientScope } from "./tool-scopes";
import { batchProblem } from "./batch";
import { grantCredential, keyCredential } from "./credentials";
import { createServer } from "./server";
import { MCP_PATH } from "../transport/mcp-path";
import type { ToolContext } from "./tools";
import { readWithin } from "../transport/body";

// CORS for every /mcp answer, SDK-built or ours: any origin may read results (the key is the credential).
const MCP_CORS = {
  origin: "*",
  headers: "Content-Type, Accept, Authorization, mcp-session-id, MCP-Protocol-Version, Mcp-Method, Mcp-Name",
  methods: "GET, POST, DELETE, OPTIONS",
  exposeHeaders: "mcp-session-id, WWW-Authenticate, RateLimit, RateLimit-Policy",
  maxAge: 86400,
};

/**
 * Stateless Streamable HTTP (no McpAgent, no Durable Object): every request is authenticated
 * here and gets a fresh McpServer bound to its own actor. The factory reads the actor from the
 * AuthInfo we hand the SDK, its documented channel for per-principal servers.
 */
const createHandler = () =>
  sdk().createMcpHandler(({ authInfo }) => createServer(toolContextOf(authInfo)), {
    route: MCP_PATH,
    // Origins are checked in handleMcp, before authentication, against the configurable allowlist.
    allowedOriginHostnames: "*",
    corsOptions: MCP_CORS,
  });
/**
 * One handler per request, never one per isolate: the SDK's handler keeps state across the requests it serves (the
 * exchanges in flight, a notification bus, the legacy fallback's keep-alives), and the Workers runtime refuses I/O
 * on one request's behalf from another's. A shared one made two concurrent tools/call requests of one client hang
 * now and then ("Cannot perform I/O on behalf of a different request", test/lifecycle/mcp.test.ts in CI). Making
 * one costs a few objects; nothing of it outlives its request.
 */
const mcp = () => createHandler();

// The SDK's own bound on a body it reads (4 MiB); larger or unsized bodies are left to it.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A POST body read and parsed once, for the era check and the transport alike. When it is not
 * JSON, the request goes on with the same text as its body, and the SDK answers the parse error;
 * a body over the SDK's bound is left unread for the SDK to refuse (413).
 */
async function withParsedBody(request: Request): Promise<{ request: Request; parsedBody?: unknown }> {
  if (request.method !== "POST" || !request.body) return { request };
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) return { request };
  // A declared length is within the bound: read natively. Without one, count while reading.
  const text =
    declared !== null
      ? await request.text()
      : await readWithin(request.clone().body!, MAX_BODY_BYTES).then(
          (bytes) => bytes && new TextDecoder().decode(bytes),
        );
  if (text === undefined) return { request };
  try {
    return { request, parsedBody: JSON.parse(text) };
  } catch {
    return { request: declared !== null ? new Request(request, { body: text }) : request };
  }
}

/** A JSON-RPC "Invalid Request" answer of our own, with the CORS headers of every /mcp answer. */
const invalidRequest = (message: string) =>
  Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32600, message } },
    {
      status: 400,
      headers: {
        "Access-Control-Allow-Origin": MCP_CORS.origin,
        "Access-Control-Expose-Headers": MCP_CORS.exposeHeaders,
      },
    },
  );

/**
 * A 2025-era POST, answered with one JSON body, as the 2026-07-28 path does by default: the SDK's
 * stateless fallback always opens an SSE stream for a single result. The spec lets the server choose
 * (`application/json` or `text/event-stream`); one JSON body is less work for both ends, and no tool
 * here sends progress or other messages before its result.
 */
async function serveLegacyAsJson(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
  const server = createServer(toolContextOf(authInfo));
  const transport = new (sdk().WebStandardStreamableHTTPServerTransport)({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { authInfo, parsedBody });
    return withRateHeaders(response, {
      "Access-Control-Allow-Origin": MCP_CORS.origin,
      "Access-Control-Expose-Headers": MCP_CORS.exposeHeaders,
    });
  } finally {
    void Promise.all([transport.close(), server.close()]).catch(() => undefined);
  }
}

function toolContextOf(authInfo: AuthInfo | undefined): ToolContext {
  const ctx = authInfo?.extra?.toolContext as ToolContext | undefined;
  // Unreachable: handleMcp passes it on every request that reaches the SDK.
  if (!ctx) throw new Error("MCP request without an authenticated context");
  return ctx;
}

/**
 * Browser pages may call /mcp from this site, a hostname in ALLOWED_ORIGINS, or localhost pages
 * when the Worker runs on localhost (wrangler dev): the same rule as the REST task routes.
 * Requests without Origin (every non-browser client) pass.
 */
export function originAllowed(request: Request, env: Env): boolean {
  const origin = request.headers.get("origin");
  return origin === null || originAllowedFor(origin, request.url, env.ALLOWED_ORIGINS ?? "");
}

// The baseline header of every other route (src/http/security-headers.ts).
const NOSNIFF = { "X-Content-Type-Options": "nosniff" };

// Error answers carry CORS headers too, so a browser client can read a 401 and ask for a key.
const corsOnErrors = {
  ...NOSNIFF,
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Retry-After",
};

/**
 * Every 401 from /mcp names where to start OAuth (RFC 9728 `resource_metadata`), so a client that holds
 * no key can discover the authorization server; a 403 for a missing scope names the scope (step-up).
 * The problem+json body is unchanged.
 */
function withChallenge(response: Response, origin: string, error: AppError, request: Request): Response {
  const metadata = `resource_metadata="${origin}${protectedResourceMetadataPath()}"`;
  if (error instanceof InsufficientScope) {
    response.headers.set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="${error.scope}", ${metadata}`);
  } else if (response.status === 401) {
    const presented = bearerFromHeader(request.headers.get("authorization")) !== undefined;
    response.headers.set("WWW-Authenticate", `Bearer ${metadata}${presented ? ', error="invalid_token"' : ""}`);
  }
  return response;
}

/**
 * `grant`: the OAuth identity when the provider has validated an access token (src/oauth/provider.ts);
 * without it the request is judged by its API key, exactly as before OAuth existed.
 */
export async function handleMcp(
  request: Request,
  env: Env,
  _executionCtx: ExecutionContext,
  grant?: OAuthGrant,
): Promise<Response> {
  try {
    // First: everything below reaches the SDK through sdk() (src/mcp/sdk.ts).
    await loadSdk();
    return await serve(request, env, grant);
  } catch (e) {
    const origin = publicOrigin(env, request.url);
    const error = toAppError(e);
    return withChallenge(problemResponseFor(origin, error, corsOnErrors), origin, error, request);
  }
}

/**
 * Origin, then the credential and its rate limit (as REST), then the SDK, then the credential's verdict:
 * no MCP result leaves before the credential is known to be live, so a refused one still gets HTTP 401.
 * The account's object judges the credential in the call of the tool's verb (one call for a task tool);
 * a request that ran no verb asks it once (credentials.ts).
 */
async function serve(request: Request, env: Env, grant: OAuthGrant | undefined): Promise<Response> {
  if (!originAllowed(request, env)) {
    throw new AppError(
      "forbidden_origin",
      "This Origin may not call the MCP endpoint. Ask the operator to add it to ALLOWED_ORIGINS.",
    );
  }
  // CORS preflights carry no credentials; the SDK handler answers them.
  if (request.method === "OPTIONS") return mcp().fetch(request);

  const credential = grant ? await grantCredential(request, env, grant) : await keyCredential(request, env);
  let { rateHeaders } = credential;
  const toolContext: ToolContext = {
    call: credential.call,
    assets: env.ASSETS,
    origin: publicOrigin(env, request.url),
    scopes: grant?.scopes,
  };
  const authInfo: AuthInfo = { ...credential.authInfo, extra: { toolContext } };
  const { request: forwarded, parsedBody } = await withParsedBody(request);
  // A batch is refused whole before anything runs, or each message after the first is counted
  // as a request of its own (batch.ts): either way before any message is served.
  const refused = batchProblem(forwarded, parsedBody);
  if (!refused && Array.isArray(parsedBody))
    for (let i = 1; i < parsedBody.length; i++) rateHeaders = await credential.count();
  if (!refused) credential.permits(parsedBody);
  const response = refused
    ? invalidRequest(refused)
    : parsedBody !== undefined && (await sdk().isLegacyRequest(forwarded, parsedBody))
      ? await serveLegacyAsJson(forwarded, authInfo, parsedBody)
      : await mcp().fetch(forwarded, { authInfo, ...(parsedBody !== undefined ? { parsedBody } : {}) });

  await credential.confirm(response);
  return withRateHeaders(response, { ...rateHeaders, ...NOSNIFF });
}
