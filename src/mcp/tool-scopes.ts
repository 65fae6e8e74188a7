import { AppError } from "../domain/errors";
import { TASKS_READ, TASKS_WRITE } from "../oauth/scopes";
import { tools } from "./tools";

/**
 * What an OAuth token's scopes allow on /mcp, judged from the request body before anything runs: a
 * `tools/call` of a tool that writes (`readOnlyHint: false`) needs `tasks:write`, any other tool
 * `tasks:read`. Every other method (initialize, tools/list, ping) needs no scope beyond a valid token.
 */
const writing = new Set<string>(tools.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name));

/** The scope a tool needs. */
export const scopeOfTool = (name: unknown) =>
  typeof name === "string" && writing.has(name) ? TASKS_WRITE : TASKS_READ;

/** 403 `insufficient_scope`, with the scope to ask for in the Bearer challenge (handler.ts). */
export class InsufficientScope extends AppError {
  constructor(
    readonly scope: string,
    tool: string,
  ) {
    super(
      "insufficient_scope",
      `This connection was not allowed to do this: ${tool} needs the ${scope} scope. Connect the app again and allow it.`,
    );
  }
}

/** Throws InsufficientScope for the first tool call in `body` (a message or a batch) that `granted` does not cover. */
export function requireToolScopes(body: unknown, granted: readonly string[]): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method !== "tools/call") continue;
    const scope = scopeOfTool(params?.name);
    if (!granted.includes(scope)) throw new InsufficientScope(scope, String(params?.name));
  }
}
