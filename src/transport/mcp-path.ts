/** Where the MCP endpoint lives. Its own module, so routing to it does not load the MCP SDK. */
export const MCP_PATH = "/mcp";
