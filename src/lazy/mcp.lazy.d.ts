// src/lazy/mcp.lazy.js: the MCP SDK's server and the agents package's Streamable HTTP handler, for /mcp only
// (src/mcp/sdk.ts loads it before a request is served). REST, pages and OAuth-only requests never parse it.
export {
  isLegacyRequest,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
export { createMcpHandler } from "agents/mcp/server";
