/** The AI connection snippets as text (no DOM): the account page shows them, test/entry-points holds the README to them. */

export const PLACEHOLDER = "<YOUR_API_KEY>";
const SERVER_NAME = "todo";

export interface Endpoints {
  mcp: string;
  rest: string;
}

export const endpointsFor = (origin: string): Endpoints => ({ mcp: `${origin}/mcp`, rest: `${origin}/api/v1` });

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Each snippet by the id of the `<code>` element that shows it. */
export function snippets({ mcp, rest }: Endpoints, key: string | null): Record<string, string> {
  const secret = key ?? PLACEHOLDER;
  const bearer = `Bearer ${secret}`;
  const exportLine = `export TODO_API_KEY=${shellQuote(secret)}`;
  return {
    "snippet-mcp-json": JSON.stringify(
      // The README's entry: "type": "http" names the transport for the clients that ask for it (Claude Code's .mcp.json).
      { mcpServers: { [SERVER_NAME]: { type: "http", url: mcp, headers: { Authorization: bearer } } } },
      null,
      2,
    ),
    "snippet-vscode": JSON.stringify(
      { servers: { [SERVER_NAME]: { type: "http", url: mcp, headers: { Authorization: bearer } } } },
      null,
      2,
    ),
    "snippet-claude-code": `claude mcp add --transport http ${SERVER_NAME} ${mcp} \\\n  --header ${shellQuote(`Authorization: ${bearer}`)}`,
    "snippet-curl-rest": [
      exportLine,
      "",
      "# List your tasks (needs Max)",
      `curl -sS ${rest}/tasks \\`,
      `  -H "Authorization: Bearer $TODO_API_KEY"`,
      "",
      "# Create a task",
      `curl -sS -X POST ${rest}/tasks \\`,
      `  -H "Authorization: Bearer $TODO_API_KEY" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{"title":"Try the Todo API"}'`,
    ].join("\n"),
    "snippet-curl-mcp": [
      exportLine,
      "",
      "# List the MCP tools",
      `curl -sS -X POST ${mcp} \\`,
      `  -H "Authorization: Bearer $TODO_API_KEY" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -H "Accept: application/json, text/event-stream" \\`,
      `  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'`,
    ].join("\n"),
  };
}
