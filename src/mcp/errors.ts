import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { toAppError } from "../app";
import type { ErrorCode } from "../domain/errors";

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
  "idempotency_in_progress",
  // A brief database outage: the model can simply retry, so it must see the error and the wait.
  "unavailable",
]);

/** What the model should do next, per code. */
const hints: Partial<Record<ErrorCode, string>> = {
  validation_failed: "Fix the arguments named in `errors` and call the tool again.",
  task_not_found: "Call list_tasks to find the task's current id.",
  max_required: "Tell the user that task tools need an active Max membership and where to upgrade; do not retry until they have.",
  sync_expired: "Call list_tasks again without `since` for a full list.",
  idempotency_key_reused: "Use a new clientRequestId for a different task.",
  idempotency_in_progress: "The first call with this clientRequestId is still running; retry the same call in a moment.",
  unavailable: "Nothing was changed. Retry the same call after `retryAfter` seconds (with the same clientRequestId for create_task).",
};

export interface ToolErrorContext {
  /** Origin of the request: the account page (and its upgrade button) lives at its root. */
  origin: string;
}

export function toolError(e: unknown, ctx: ToolErrorContext): CallToolResult {
  const error = toAppError(e);
  if (!modelFixable.has(error.code)) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, "Internal error on the server. Try again later.");
  }
  const upgradeUrl = error.code === "max_required" ? `${ctx.origin}/` : undefined;
  const hint = hints[error.code];
  const body = {
    error: {
      code: error.code,
      message: error.detail,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(upgradeUrl ? { upgradeUrl } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      ...(hint ? { hint } : {}),
    },
  };
  const fields = error.errors?.length ? ` Fields: ${error.errors.map((f) => `${f.path || "(arguments)"}: ${f.message}`).join("; ")}.` : "";
  const text = `${error.code}: ${error.detail}${fields}${upgradeUrl ? ` Upgrade at ${upgradeUrl}` : ""}`;
  return { isError: true, content: [{ type: "text", text }], structuredContent: body };
}
