import { byId, copyText } from "./dom";

/** The AI connection endpoints and ready-to-paste snippets. */

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

/** Fills the endpoint fields and snippets; with a key, the snippets carry it, otherwise a placeholder. */
export function renderConnection(endpoints: Endpoints, key: string | null): void {
  byId<HTMLInputElement>("mcp-url").value = endpoints.mcp;
  byId<HTMLInputElement>("rest-url").value = endpoints.rest;
  for (const [id, text] of Object.entries(snippets(endpoints, key))) byId(id).textContent = text;
  byId("snippet-key-note").textContent = key
    ? "These snippets contain your new key. Copy what you need before you close the key panel above."
    : `Replace ${PLACEHOLDER} with your key. Keep the key in your client's settings or a secret store, never in a chat or prompt.`;
}

/** One listener for every button with `data-copy="<id of an input or code element>"`. */
export function wireCopyButtons(root: HTMLElement): void {
  root.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>("button[data-copy]");
    if (!button?.dataset.copy) return;
    const source = byId(button.dataset.copy);
    const text = source instanceof HTMLInputElement ? source.value : (source.textContent ?? "");
    void copyText(text, source, button);
  });
}
