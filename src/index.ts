import { createApp } from "./app";
import { handleMcp, MCP_PATH } from "./mcp/handler";

const app = createApp();

export default {
  // /mcp is served by the MCP SDK handler (its own auth and origin checks); everything else by Hono.
  fetch: (request, env, ctx) => (new URL(request.url).pathname === MCP_PATH ? handleMcp(request, env, ctx) : app.fetch(request, env, ctx)),
} satisfies ExportedHandler<Env>;
