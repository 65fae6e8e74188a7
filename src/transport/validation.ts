import type { Hook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type * as z from "zod";
import { AppError, type FieldError } from "../domain/errors";
import type { AppEnv } from "./env";
import { readWithin } from "./body";

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
 * Judges a request's credentials before it is refused for its body, so that a caller who may not
 * come in hears 401/403, never 400/413 (the documented order). Routes whose credentials an earlier
 * middleware has already judged in full (sessions, the admin token) need none.
 */
export type JudgeCredentials = (c: Context<AppEnv>) => Promise<void>;

/**
 * Write requests to routes with JSON bodies: the body must be declared JSON (without this a
 * text/plain PATCH would validate as `{}` and silently succeed), at most 128 KiB, and parse.
 * It is parsed here once; the route's validator reads the same value from Hono's body cache.
 * Mount it after the route's credential middleware, with `judge` where that middleware left part
 * of the judgement for later (task routes: the key's lookup rides in the verb's own D1 batch).
 */
export const jsonBodies =
  (judge?: JudgeCredentials): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!["POST", "PUT", "PATCH"].includes(c.req.method)) return next();
    return checkBody(c, next, judge);
  };

/**
 * The same checks for a route whose method usually has no body but whose operation needs one
 * (`DELETE /account` takes the password): mount it as that route's own middleware.
 */
export const jsonBody: MiddlewareHandler<AppEnv> = (c, next) => checkBody(c, next);

/**
 * Marks a request to a route whose body is optional (declared `request.body.required: false`): mounted
 * in front of the guards by `routesFor`, so the body rules read the declaration, not a list of paths.
 */
export const optionalBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("bodyOptional", true);
  return next();
};

/**
 * Marks a request to a route whose declared body is not only JSON (POST /api/v1/import takes CSV too):
 * mounted in front of the guards by `routesFor`, the JSON body rules leave it to the route, which
 * reads the body itself within its own limit (http/v1/import-body.ts).
 */
export const uploadBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("bodyUpload", true);
  return next();
};

async function checkBody(c: Context<AppEnv>, next: () => Promise<void>, judge?: JudgeCredentials) {
  if (c.get("bodyUpload")) return next();
  // `curl -X POST …` sends no body and no type; some clients send a type and 0 bytes. Both mean `{}`.
  const empty = c.get("bodyOptional") ? await isEmpty(c) : false;
  if (empty instanceof AppError) {
    await judge?.(c);
    throw empty;
  }
  if (empty) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    c.req.raw = new Request(c.req.raw, { body: "{}", headers });
    return next();
  }
  const problem = await bodyProblem(c);
  if (problem) {
    // A refused body can afford the round trip of a lookup; a valid request never pays it.
    await judge?.(c);
    throw problem;
  }
  return next();
}

// The media type the validator reads as JSON (hono/validator): anything else would validate as `{}`.
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const mediaType = (contentType: string | undefined) => (contentType ?? "").split(";")[0]!.trim();

const notJson = () =>
  new AppError("validation_failed", "The body must be JSON: send `Content-Type: application/json`.", [
    { path: "", message: "Content-Type must be application/json" },
  ]);
const tooLarge = () => new AppError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
const malformed = () =>
  new AppError("validation_failed", "The body is not valid JSON.", [
    { path: "", message: "The body is not valid JSON." },
  ]);

/**
 * Whether the request carries no body bytes. A body without a declared length is read to find out (up
 * to the limit: past it, the 413) and put back for the checks that follow.
 */
async function isEmpty(c: Context<AppEnv>): Promise<boolean | AppError> {
  const body = c.req.raw.body;
  const declared = c.req.header("content-length");
  if (!body || declared === "0") return true;
  if (declared !== undefined && !c.req.header("transfer-encoding")) return false;
  const bytes = await readWithin(body, MAX_BODY_BYTES);
  if (!bytes) return tooLarge();
  c.req.raw = new Request(c.req.raw, { body: bytes });
  return bytes.byteLength === 0;
}

async function bodyProblem(c: Context<AppEnv>): Promise<AppError | undefined> {
  if (!JSON_MEDIA_TYPE.test(mediaType(c.req.header("content-type")))) return notJson();
  const declared = c.req.header("content-length");
  if (declared !== undefined && !c.req.header("transfer-encoding")) {
    if (Number(declared) > MAX_BODY_BYTES) return tooLarge();
  } else if (c.req.raw.body) {
    // No declared length: count while reading, and stop at the limit.
    const bytes = await readWithin(c.req.raw.body, MAX_BODY_BYTES);
    if (!bytes) return tooLarge();
    c.req.raw = new Request(c.req.raw, { body: bytes });
  }
  try {
    await c.req.json();
  } catch {
    return malformed();
  }
  return undefined;
}
