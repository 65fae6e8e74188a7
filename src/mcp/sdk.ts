import { loadMcpSdk } from "../lazy/load";

/**
 * The MCP SDK (and the agents package's handler) as one lazily loaded module (src/lazy/mcp.lazy.d.ts): REST, the
 * pages and the daily job never parse its ~85 KiB gzip. `handleMcp` awaits `loadSdk()` before anything else, and the
 * code it runs reaches the SDK through `sdk()`, so there is one copy of its classes (ProtocolError is thrown here
 * and recognised by the SDK with `instanceof`). Types come from the packages with `import type`.
 */
type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
let loaded: McpSdk | undefined;

export async function loadSdk(): Promise<McpSdk> {
  loaded ??= await loadMcpSdk();
  return loaded;
}

export function sdk(): McpSdk {
  if (!loaded) throw new Error("the MCP SDK is used before handleMcp loaded it (src/mcp/sdk.ts)");
  return loaded;
}
