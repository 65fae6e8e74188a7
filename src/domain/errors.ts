/**
 * The one error type the domain raises. It knows nothing about HTTP or MCP:
 * `transport/problem.ts` renders it as problem+json, `mcp/errors.ts` as a tool result.
 */
export const errorCodes = [
  "validation_failed",
  "unauthorized",
  "max_required",
  "insufficient_scope",
  "forbidden_origin",
  "task_not_found",
  "list_not_found",
  "label_not_found",
  "pack_not_found",
  "webhook_not_found",
  "push_subscription_not_found",
  "not_found",
  "method_not_allowed",
  "email_taken",
  "invalid_credentials",
  "invalid_token",
  "email_unverified",
  "mail_off",
  "push_off",
  "totp_required",
  "totp_enabled",
  "key_limit_reached",
  "webhook_limit_reached",
  "passkey_limit_reached",
  "list_exists",
  "label_exists",
  "precondition_failed",
  "idempotency_key_reused",
  "sync_expired",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "internal",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldError {
  /** JSON-pointer-like dotted path of the offending field, "" for the whole input. */
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Seconds a client should wait before retrying (rate limits, outages). */
    readonly retryAfter?: number,
  ) {
    super(detail);
    this.name = "AppError";
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
