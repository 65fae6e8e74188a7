/**
 * The two OAuth scopes of /mcp, and what each tool needs. A tool's `readOnlyHint` (src/mcp/tools/*)
 * decides it: read-only tools need `tasks:read`, every tool that writes needs `tasks:write`.
 * `tasks:write` implies `tasks:read` at consent (a client that may change tasks may see them), so every
 * token holds `tasks:read`.
 */
export const TASKS_READ = "tasks:read";
export const TASKS_WRITE = "tasks:write";
export const SCOPES = [TASKS_READ, TASKS_WRITE] as const;
export type Scope = (typeof SCOPES)[number];

/** What the consent page says each scope allows. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  [TASKS_READ]: "See your tasks and look up public holiday calendars",
  [TASKS_WRITE]: "Create, change, complete and delete your tasks",
};

const isScope = (scope: string): scope is Scope => (SCOPES as readonly string[]).includes(scope);

/**
 * The scopes a consent grants for what a client asked: none, or only scopes this server does not know
 * (`offline_access`, `openid`, …), is both; `tasks:write` brings `tasks:read`; `tasks:read` alone is
 * read-only. Unknown scopes are never granted.
 */
export function grantedScopes(requested: readonly string[]): Scope[] {
  const known = requested.filter(isScope);
  return known.length === 0 || known.includes(TASKS_WRITE) ? [TASKS_READ, TASKS_WRITE] : [TASKS_READ];
}
