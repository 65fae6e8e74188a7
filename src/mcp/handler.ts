import { type AuthInfo, localhostAllowedOrigins, validateOriginHeader } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { createDb } from "../db/client";
import { authenticateApiKey } from "../domain/api-keys/service";
import { AppError, isAppError } from "../domain/errors";
import { bearerFromHeader } from "../http/auth";
import { problemResponseFor } from "../http/problem";
import { createServer } from "./server";
import type { ToolContext } from "./tools";

export const MCP_PATH = "/mcp";

/**
 * Stateless Streamable HTTP (no McpAgent, no Durable Object): every request is authenticated
 * here and gets a fresh McpServer bound to its own actor. The factory reads the actor from the
 * AuthInfo we hand the SDK, its documented channel for per-principal servers.
 */
const mcp = createMcpHandler(({ authInfo }) => createServer(toolContextOf(authInfo)), {
  route: MCP_PATH,
  // Origins are checked in handleMcp, before authentication, against the configurable allowlist.
  allowedOriginHostnames: "*",
  corsOptions: { exposeHeaders: "mcp-session-id, WWW-Authenticate" },
});

function toolContextOf(authInfo: AuthInfo | undefined): ToolContext {
  const ctx = authInfo?.extra?.toolContext as ToolContext | undefined;
  // Unreachable: handleMcp passes it on every request that reaches the SDK.
  if (!ctx) throw new Error("MCP request without an authenticated context");
  return ctx;
}

/** Browser pages may only call /mcp from localhost, this host, or a hostname in ALLOWED_ORIGINS. */
export function originAllowed(request: Request, env: Env): boolean {
  const configured = env.ALLOWED_ORIGINS.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  const allowed = [...localhostAllowedOrigins(), new URL(request.url).hostname, ...configured];
  // A missing Origin (every non-browser client) passes; a malformed or opaque one does not.
  return validateOriginHeader(request.headers.get("origin"), allowed).ok;
}

// Error answers carry CORS headers too, so a browser client can read a 401 and ask for a key.
const corsOnErrors = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "WWW-Authenticate",
};

const problem = (request: Request, error: AppError) => problemResponseFor(request.url, error, corsOnErrors);

export async function handleMcp(request: Request, env: Env, executionCtx: ExecutionContext): Promise<Response> {
  if (!originAllowed(request, env)) {
    return problem(request, new AppError("forbidden_origin", "This Origin may not call the MCP endpoint."));
  }
  // CORS preflights carry no credentials; the SDK handler answers them.
  if (request.method === "OPTIONS") return mcp.fetch(request);

  const db = createDb(env.DB);
  let authenticated: Awaited<ReturnType<typeof authenticateApiKey>>;
  try {
    // Same rule as the REST task routes, on every request: revocations and lapses apply at once.
    authenticated = await authenticateApiKey(db, bearerFromHeader(request.headers.get("authorization")));
  } catch (e) {
    if (isAppError(e)) return problem(request, e);
    console.error("mcp authentication failed", e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    return problem(request, new AppError("internal", "Something went wrong on our side. Try again later."));
  }
  const { actor, touch } = authenticated;
  if (touch) executionCtx.waitUntil(touch().catch(() => undefined));

  const toolContext: ToolContext = { db, actor, assets: env.ASSETS, origin: new URL(request.url).origin };
  const authInfo: AuthInfo = {
    token: bearerFromHeader(request.headers.get("authorization"))!,
    clientId: actor.keyId ?? actor.accountId,
    scopes: [],
    extra: { toolContext },
  };
  return mcp.fetch(request, { authInfo });
}
