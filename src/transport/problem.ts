import * as z from "zod";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type AppError, errorCodes, type ErrorCode } from "../domain/errors";
import { publicOrigin } from "./public-origin";

/** HTTP rendering of domain errors: status, title and RFC 9457 problem+json. */
const statusOf: Record<ErrorCode, ContentfulStatusCode> = {
  validation_failed: 400,
  invalid_token: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  totp_required: 401,
  max_required: 403,
  insufficient_scope: 403,
  forbidden_origin: 403,
  email_unverified: 403,
  task_not_found: 404,
  list_not_found: 404,
  label_not_found: 404,
  pack_not_found: 404,
  webhook_not_found: 404,
  push_subscription_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  totp_enabled: 409,
  key_limit_reached: 409,
  webhook_limit_reached: 409,
  passkey_limit_reached: 409,
  list_exists: 409,
  label_exists: 409,
  sync_expired: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  mail_off: 501,
  push_off: 501,
  unavailable: 503,
};

export const titleOf = (code: ErrorCode) => code.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
export const statusOfCode = (code: ErrorCode) => statusOf[code];

export const Problem = z
  .object({
    type: z.string().openapi({
      description: "URI of the problem type's page (status, meaning, what to do); ends in the `code`.",
      example: "https://todo.example.com/problems/validation_failed",
    }),
    title: z.string().openapi({ description: "Short summary of the problem type.", example: "Validation failed" }),
    status: z.number().int().openapi({ description: "The HTTP status code.", example: 400 }),
    detail: z.string().openapi({
      description: "What went wrong in this request, for people.",
      example: "The request body is invalid.",
    }),
    code: z
      .enum(errorCodes)
      .openapi({ description: "Stable machine-readable error code.", example: "validation_failed" }),
    errors: z
      .array(
        z.object({
          path: z
            .string()
            .openapi({ description: 'Dotted path of the field; "" for the whole input.', example: "title" }),
          message: z
            .string()
            .openapi({ description: "What is wrong with it.", example: "must be at most 500 characters" }),
        }),
      )
      .optional()
      .openapi({
        description: "Field-level problems, for validation errors.",
        example: [{ path: "title", message: "must be at most 500 characters" }],
      }),
    upgradeUrl: z.string().optional().openapi({
      description: "For `max_required`: the account page's billing section, where Max is bought or renewed.",
      example: "https://todo.example.com/#billing",
    }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details." });

/** Where a caller without Max goes: the account page's membership section (Upgrade to Max, Manage billing). */
export const upgradeUrl = (origin: string) => `${origin}/#billing`;

/**
 * What to do next, added to the detail over HTTP where the domain's message leaves it to the surface:
 * the domain names no route, and MCP names its tool instead (mcp/errors.ts).
 */
const nextStep: Partial<Record<ErrorCode, string>> = {
  pack_not_found: "GET /api/v1/calendars lists them.",
};

/** `origin`: where problem type URIs live (publicOrigin, or the request's own origin). */
function problemParts(origin: string, error: AppError) {
  const status = statusOf[error.code];
  const next = nextStep[error.code];
  const body = {
    type: `${origin}/problems/${error.code}`,
    title: titleOf(error.code),
    status,
    detail: next ? `${error.detail} ${next}` : error.detail,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.code === "max_required" ? { upgradeUrl: upgradeUrl(origin) } : {}),
  };
  const headers: Record<string, string> = { "Content-Type": "application/problem+json" };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="todo"';
  if (error.retryAfter !== undefined) headers["Retry-After"] = String(error.retryAfter);
  return { status, body, headers };
}

export function problemResponse(c: Context, error: AppError): Response {
  const { status, body, headers } = problemParts(publicOrigin(c.env, c.req.url), error);
  return c.body(JSON.stringify(body), status, headers);
}

/**
 * The same problem+json without a Hono context: /mcp answers before the app runs. `url` is the
 * request's URL, or better `publicOrigin(env, request.url)` (a bare origin is a URL too).
 */
export function problemResponseFor(url: string, error: AppError, extraHeaders?: HeadersInit): Response {
  const { status, body, headers } = problemParts(new URL(url).origin, error);
  const all = new Headers(extraHeaders);
  for (const [name, value] of Object.entries(headers)) all.set(name, value);
  return new Response(JSON.stringify(body), { status, headers: all });
}

/** OpenAPI response entries for the given error codes; spread into every route's `responses`. */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const code of [...codes, "internal" as const]) {
    const status = statusOf[code];
    byStatus[status] = [...(byStatus[status] ?? []), code];
  }
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, list]) => [
      status,
      {
        description: list.map((code) => `\`${code}\``).join(", "),
        content: { "application/problem+json": { schema: Problem } },
      },
    ]),
  );
}
