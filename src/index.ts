// First: @hono/zod-openapi (through the app) adds `.openapi()` to zod's schemas before any is built.
import { createApp } from "./app";
import { accountObject } from "./control/account-client";
import { moveWaitingAccounts } from "./control/move-from-d1";
import { createDb } from "./control/db";
import { purgeControlPlane } from "./control/retention";
import { MCP_PATH } from "./transport/mcp-path";
import { carriesOAuthToken, isOAuthPath } from "./transport/oauth-paths";

// Each account's Durable Object (wrangler.toml [[durable_objects.bindings]]).
export { AccountObject } from "./object/account-object";

// Built on the first request, not at module scope: start-up stays constant set-up only.
let app: ReturnType<typeof createApp> | undefined;
const honoApp = () => {
  app ??= createApp();
  return app;
};

// The MCP SDK, with its protocol schemas, loads on the first /mcp request: an isolate that serves
// only REST never builds them (wrangler check startup: about 41 → 33 ms of start-up CPU, measured).
const mcpHandler = () => import("./mcp/handler");
// The OAuth provider (src/oauth/provider.ts) loads the same way, only for OAuth requests.
const oauth = () => import("./oauth/provider");

/**
 * The daily job (Cron Trigger): expired and revoked sessions and old Stripe event ids in D1, and accounts
 * that wait for the move from D1 moved into their objects. It logs how many still wait: at `waiting: 0`,
 * src/control/move-from-d1.ts can be deleted. Each account's own retention runs in its object's alarm.
 */
async function daily(env: Env) {
  const purged = await purgeControlPlane(createDb(env.DB));
  const { moved, waiting } = await moveWaitingAccounts(env, (id) => accountObject(env, id));
  console.log("daily job", { ...purged, moved, waiting });
}

export default {
  // /mcp with an API key (or no credential) goes straight to the MCP handler, as before OAuth existed:
  // no KV read, nothing of the provider loaded. /mcp with an OAuth access token and the OAuth
  // endpoints go through the provider; everything else is Hono's.
  fetch: (request, env, ctx) => {
    const { pathname } = new URL(request.url);
    if (pathname === MCP_PATH && !carriesOAuthToken(request))
      return mcpHandler().then(({ handleMcp }) => handleMcp(request, env, ctx));
    if (pathname === MCP_PATH || isOAuthPath(pathname))
      return oauth().then(({ handleOAuth }) => handleOAuth(request, env, ctx, honoApp()));
    return honoApp().fetch(request, env, ctx);
  },
  scheduled: (_controller, env, ctx) => ctx.waitUntil(daily(env)),
} satisfies ExportedHandler<Env>;
