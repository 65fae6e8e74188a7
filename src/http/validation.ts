import type { Hook } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type * as z from "zod";
import { AppError, type FieldError } from "../domain/errors";

export const MAX_BODY_BYTES = 128 * 1024;

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.code === "unrecognized_keys" ? `unknown properties: ${issue.keys.join(", ")}` : issue.message,
  }));
}

export function validationError(target: string, issues: readonly z.core.$ZodIssue[]): AppError {
  const errors = fieldErrors(issues);
  const named = errors.map((e) => e.path || target).join(", ");
  return new AppError("validation_failed", `Invalid ${target}: ${named}.`, errors);
}

/** Shared by every OpenAPIHono: a failed zod validation becomes one AppError. */
export const defaultHook: Hook<unknown, any, any, any> = (result) => {
  if (!result.success) {
    const target = (result as { target?: string }).target ?? "request";
    throw validationError(target === "json" ? "body" : target, result.error.issues);
  }
};

/**
 * Write requests to routes with JSON bodies must say so: without this, a text/plain PATCH
 * would validate as `{}` and silently succeed. Bodies above 128 KiB are refused before parsing.
 */
export const jsonBodies: MiddlewareHandler = async (c, next) => {
  if (!["POST", "PUT", "PATCH"].includes(c.req.method)) return next();
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new AppError("validation_failed", "The body must be JSON: send `Content-Type: application/json`.", [
      { path: "", message: "Content-Type must be application/json" },
    ]);
  }
  return limit(c, next);
};

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
  },
});
