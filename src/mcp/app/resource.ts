import { RESOURCE_MIME_TYPE, registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/server";
import { TASKS_WRITE } from "../../transport/scopes";
import type { ToolContext } from "../tools/descriptor";

/**
 * The MCP App for tasks (issue 37 item 2): one self-contained HTML file built by scripts/build-app.mjs
 * into static assets, and read from there at request time (ASSETS), so its ~115 KiB gzip never enter the
 * Worker's start-up bundle (250 KiB budget, scripts/check-bundle-size.mjs). list_tasks links to it with
 * `_meta.ui.resourceUri`; hosts without MCP Apps ignore the link.
 */
export const TASKS_APP_URI = "ui://tasks/app.html";
export const TASKS_APP_ASSET = "/mcp-app/tasks.html";

// The host ignores this origin; only the path selects the file (as src/domain/calendars/catalogue.ts).
const ASSET_ORIGIN = "https://assets.invalid";

/**
 * The view makes no request of its own (every call goes through the host bridge) and loads nothing:
 * empty lists are the strictest policy the spec offers (no connect-src, no resource sources).
 */
const UI = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true };

/** "write" or "read": written into the page's `tasks-access` meta, so a read-only grant's view disables its writes. */
export const accessOf = (scopes: readonly string[] | undefined) =>
  !scopes || scopes.includes(TASKS_WRITE) ? "write" : "read";

async function readApp(assets: Fetcher): Promise<string> {
  const response = await assets.fetch(new Request(`${ASSET_ORIGIN}${TASKS_APP_ASSET}`));
  const text = await response.text();
  // A missing file may come back as 404 or as another page (SPA fallback): only the built app counts.
  if (!response.ok || !text.includes('name="tasks-access"')) {
    throw new Error(`${TASKS_APP_ASSET} is missing from static assets: run npm run assets`);
  }
  return text;
}

/**
 * Registered for every credential, read-only grants included (resources/read needs no scope beyond a
 * valid token): what a grant may not do is disabled in the view, with the reason.
 */
export function registerTasksApp(server: McpServer, ctx: ToolContext): void {
  registerAppResource(
    server,
    "Tasks",
    TASKS_APP_URI,
    {
      title: "Tasks",
      description: "Interactive task list: check off, add, edit title and due date, filter by list.",
      _meta: { ui: UI },
    },
    async () => ({
      contents: [
        {
          uri: TASKS_APP_URI,
          mimeType: RESOURCE_MIME_TYPE,
          text: (await readApp(ctx.assets)).replace("{{access}}", accessOf(ctx.scopes)),
          _meta: { ui: UI },
        },
      ],
    }),
  );
}
