import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";

/**
 * The view's one way to the server: the host bridge (ext-apps `App`), calling the server's own tools
 * (list_tasks, create_task, update_task, complete_task) with the user's connection. The view holds no
 * credential and opens no network connection of its own (its CSP has no connect-src).
 */
export const app = new App({ name: "todo-calendar-tasks", version: "1.0.0" }, {});

/** A tool's structured result, or an Error with the tool's text (the server's error message). */
export async function callTool<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await app.callServerTool({ name, arguments: args });
  if (result.isError) {
    const text = result.content?.find((block) => block.type === "text");
    throw new Error(text && "text" in text ? text.text : `${name} failed`);
  }
  return result.structuredContent as T;
}

/** The host's theme and CSS variables (fonts are left to --font-sans: the CSP loads no font files). */
export function applyHostContext(context: McpUiHostContext | undefined) {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/**
 * What the connection may do, written into the page by the server when it serves the resource
 * (src/mcp/app/resource.ts): "read" for an OAuth grant without tasks:write.
 */
export const canWrite = () => document.querySelector('meta[name="tasks-access"]')?.getAttribute("content") !== "read";

export const READ_ONLY_REASON =
  "This connection may read tasks but not change them. To change them here, connect the app again and allow changes.";
