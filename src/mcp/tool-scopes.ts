import { AppError } from "../domain/errors";
import { TASKS_READ, TASKS_WRITE } from "../transport/scopes";
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

/**
 * The tools a credential is offered in tools/list: all of them for an API key (`scopes` undefined), and
 * for an OAuth token those its scopes cover, so a read-only connection is never offered a tool that
 * would answer 403 (the 1.x SDK turns that 403 into an upscoping failure the model cannot read).
 */
export const offersTool = (scopes: readonly string[] | undefined, name: string) =>
  !scopes || scopes.includes(scopeOfTool(name));

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
