import type { CallToolResult } from "@modelcontextprotocol/server";
import { sdk } from "./sdk";
import { toAppError } from "../transport/app-error";
import type { ErrorCode } from "../domain/errors";
import { upgradeUrl } from "../transport/problem";

/**
 * The one rendering of domain errors for MCP. Errors the model can act on (fix an argument,
 * look the id up again, tell the user to upgrade) become a tool result with `isError: true`,
 * so the model sees them; everything else is a protocol error with a generic message.
 * Neither carries a stack trace, a key or SQL.
 */
const modelFixable = new Set<ErrorCode>([
  "validation_failed",
  "task_not_found",
  "pack_not_found",
  "max_required",
  "sync_expired",
  "idempotency_key_reused",
  // A brief database outage: the model can simply retry, so it must see the error and the wait.
  "unavailable",
]);

/** What the model should do next, per code. */
const hints: Partial<Record<ErrorCode, string>> = {
  validation_failed: "Fix the arguments named in Fields and call the tool again.",
  task_not_found: "Call list_tasks to find the task's current id.",
  pack_not_found: "Call list_calendar_packs to find the pack's id.",
  max_required:
    "Tell the user that task tools need an active Max membership and give them the Upgrade link; retry once they have upgraded there.",
  sync_expired: "Call list_tasks again without `since` for a full list.",
  idempotency_key_reused: "Use a new clientRequestId for a different task.",
  unavailable:
    "Nothing was changed. Retry the same call after the seconds given (with the same clientRequestId for create_task).",
};

export interface ToolErrorContext {
  /** Origin of the request: the account page (and its Upgrade to Max button) lives at its root. */
  origin: string;
}

/**
 * A tool error as text only, no `structuredContent`. Clients validate structuredContent against the
 * tool's outputSchema, error results included (the 1.x TypeScript SDK does once it has listed tools),
 * so an error object there breaks them; widening every outputSchema to admit it would cost tokens on
 * every tools/list and blur what a success looks like. The text holds what the model acts on, one
 * fact per line: `<code>: <message>`, then `Fields:`, `Hint:`, `Upgrade:` and `Retry after:`.
 */
export function toolError(e: unknown, ctx: ToolErrorContext): CallToolResult {
  const error = toAppError(e);
  if (!modelFixable.has(error.code)) {
    throw new (sdk().ProtocolError)(
      sdk().ProtocolErrorCode.InternalError,
      "Internal error on the server. Try again later.",
    );
  }
  const lines = [`${error.code}: ${error.detail}`];
  if (error.errors?.length)
    lines.push(`Fields: ${error.errors.map((f) => `${f.path || "(arguments)"}: ${f.message}`).join("; ")}`);
  const hint = hints[error.code];
  if (hint) lines.push(`Hint: ${hint}`);
  if (error.code === "max_required") lines.push(`Upgrade: ${upgradeUrl(ctx.origin)}`);
  if (error.retryAfter !== undefined) lines.push(`Retry after: ${error.retryAfter} s`);
  return { isError: true, content: [{ type: "text", text: lines.join("\n") }] };
}
