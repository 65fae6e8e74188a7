/**
 * JSON-RPC batches (an array body) on /mcp. An array was one request to the per-key rate limit
 * however many tool calls it held: 100 `create_task` calls created 100 tasks for one count.
 *
 * Only MCP 2025-03-26 has batches: 2024-11-05 had not added them, 2025-06-18 removed them, and
 * 2026-07-28 has none. So:
 * - on any other revision, a batch is refused whole, as JSON-RPC -32600 (HTTP 400), before
 *   anything in it runs;
 * - on 2025-03-26 (named in MCP-Protocol-Version, or no header: the revision a server assumes
 *   without one), whose servers must accept batches, a batch holds 1 to MAX_BATCH_MESSAGES
 *   messages and each message counts against the key's limit as a request of its own (handler.ts).
 */
export const MAX_BATCH_MESSAGES = 10;
export const BATCH_REVISION = "2025-03-26";

/** Why this body may not be served, or undefined: not a batch, or a batch of a size served here. */
export function batchProblem(request: Request, body: unknown): string | undefined {
  if (!Array.isArray(body)) return undefined;
  const revision = request.headers.get("mcp-protocol-version")?.trim() || BATCH_REVISION;
  if (revision !== BATCH_REVISION) {
    return `Invalid Request: JSON-RPC batches exist only in MCP ${BATCH_REVISION}, not in ${revision}. Send one message per request.`;
  }
  if (body.length === 0) return "Invalid Request: an empty JSON-RPC batch.";
  if (body.length > MAX_BATCH_MESSAGES) {
    return `Invalid Request: a JSON-RPC batch holds at most ${MAX_BATCH_MESSAGES} messages here. Send the rest in another request.`;
  }
  return undefined;
}
