import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the provider reported while it answered one request: the `internal.reason` of each error it
 * built (its onError hook, provider.ts). The reason is the exact check that failed, which the response
 * deliberately hides (a replayed code and a wrong one both read `invalid_grant`); the Worker acts on a
 * few of them (token-endpoint.ts). Scoped per request, since one isolate serves many at once.
 */

const reports = new AsyncLocalStorage<string[]>();

/** Called by onError: `<category>:<reason>`, e.g. `authorization-code-grant:code_replayed`. */
export function reportProviderError(internal: { category: string; reason: string }): void {
  reports.getStore()?.push(`${internal.category}:${internal.reason}`);
}

/** Runs `work` (a provider call) and returns its result with the reasons reported meanwhile. */
export async function withProviderReports<T>(work: () => Promise<T>): Promise<{ result: T; reasons: string[] }> {
  const reasons: string[] = [];
  const result = await reports.run(reasons, work);
  return { result, reasons };
}
