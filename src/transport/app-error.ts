import { HTTPException } from "hono/http-exception";
import { classifyDbError, describeError } from "../domain/faults";
import { AppError, isAppError } from "../domain/errors";

/**
 * Anything thrown while serving a request, as the one error type every surface renders: REST
 * (app.ts onError), MCP (mcp/errors.ts) and OAuth (oauth/provider.ts).
 */

/** Hono's own exceptions (malformed JSON, media type) expressed as domain errors. */
function fromHttpException(e: HTTPException): AppError {
  if (e.status === 413) return new AppError("payload_too_large", "The body is too large.");
  if (e.status === 404) return new AppError("not_found", "No such route.");
  if (e.status === 400 || e.status === 415) {
    const detail = /json/i.test(e.message) ? "The body is not valid JSON." : e.message || "The request is malformed.";
    return new AppError("validation_failed", detail, [{ path: "", message: detail }]);
  }
  return new AppError("internal", "Something went wrong on our side.");
}

export function toAppError(e: unknown): AppError {
  if (isAppError(e)) return e;
  if (e instanceof HTTPException) return fromHttpException(e);
  // Log the innermost error's name and message only: bodies, headers and SQL parameters can hold secrets.
  const dbFault = classifyDbError(e);
  console.error(dbFault ? "database unavailable" : "unhandled error", describeError(e));
  return dbFault ?? new AppError("internal", "Something went wrong on our side. Try again later.");
}
