import { classifyDbError, describeError } from "../domain/faults";
import { AppError, type ErrorCode, type FieldError, isAppError } from "../domain/errors";
import { UNAUTHORIZED } from "./credentials";

/**
 * How an answer crosses from an account's object to the Worker. RPC keeps an error's message but not
 * its class, so a domain error travels as data and becomes the same AppError on the Worker's side.
 */
export type Result<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: { code: ErrorCode; detail: string; errors?: FieldError[]; retryAfter?: number };
      /** Set by an object that has no account yet (ACCOUNT_MISSING). */
      accountMissing?: true;
    };

/**
 * The answer of an object that has no account yet: 401 as it stands, and the sign that lets the Worker
 * look whether the account still waits for the move from D1 (account-client.ts `reachAccount`), which a
 * credential check alone could not tell from an unknown key.
 */
export const ACCOUNT_MISSING: Result<never> = {
  ok: false,
  error: { code: "unauthorized", detail: UNAUTHORIZED },
  accountMissing: true,
};

/** An error thrown inside the object, as a Result: domain errors as they are, storage faults as 503, the rest 500. */
export function failure(e: unknown): Result<never> {
  const error = isAppError(e) ? e : classifyDbError(e);
  if (!error) console.error("account object: unhandled error", describeError(e));
  const { code, detail, errors, retryAfter } = error ?? new AppError("internal", "Something went wrong on our side.");
  return { ok: false, error: { code, detail, errors, retryAfter } };
}

/** The value of a Result, or its error thrown again as an AppError. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  const { code, detail, errors, retryAfter } = result.error;
  throw new AppError(code, detail, errors, retryAfter);
}
