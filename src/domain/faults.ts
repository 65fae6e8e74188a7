import { AppError } from "./errors";

/**
 * One place that decides what a thrown database error means to a client. REST (`toAppError`)
 * and MCP both call it, so a D1 outage is a 503 `unavailable` with Retry-After everywhere,
 * never a 500 with a stack trace.
 */

/** Seconds a client should wait before retrying after a D1 failure. */
export const D1_RETRY_AFTER = 5;

/**
 * Messages D1 and workerd use when the database cannot answer: outages, overload, a storage
 * reset, a dropped connection, a timeout. Every `D1_…` error counts as unavailable except those a
 * retry cannot change (`permanent`): they are 500 `internal`, never a 503 inviting the client to
 * retry the same request forever.
 */
const unavailablePatterns = [
  /^D1_/,
  /\bD1\b.*\b(overloaded|unavailable|reset|timed? ?out)\b/i,
  /network connection lost/i,
  /storage (caller|operation|object).*(reset|exceeded|timed? ?out)/i,
  /object to be reset/i,
  // What a Durable Object's stub throws when the account's object cannot answer right now.
  /\bDurable Object\b.*\b(overloaded|reset|transient)\b/i,
  /SQLITE_BUSY|database is locked/i,
];
/**
 * Failures of the request itself, not of the database: a constraint violation (a bug or a race the
 * code must handle), a value over SQLite's size limit (SQLITE_TOOBIG: 2,000,000 bytes on D1, about
 * 8 MiB in local workerd; a listing is built row by row in JavaScript and never gets here),
 * more bound parameters than SQLite takes, a value D1 cannot bind. (A missing table
 * stays `unavailable`: between a deploy and its migration, a retry is the right advice.)
 */
const permanent =
  /constraint failed|SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|RANGE)\b|too big|too many SQL variables|D1_TYPE_ERROR/i;

/** The error and its `cause`s, outermost first (drizzle wraps D1's error in a DrizzleQueryError). */
function chain(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let current = e; current !== undefined && current !== null && out.length < 8; ) {
    out.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** `unavailable` for a failure of the database itself, otherwise undefined. */
export function classifyDbError(e: unknown): AppError | undefined {
  const messages = chain(e).map(messageOf);
  if (messages.some((m) => permanent.test(m))) return undefined;
  if (!messages.some((m) => unavailablePatterns.some((p) => p.test(m)))) return undefined;
  return new AppError(
    "unavailable",
    `The database is temporarily unavailable. Retry in ${D1_RETRY_AFTER} seconds; a retried creation with the same Idempotency-Key is not duplicated.`,
    undefined,
    D1_RETRY_AFTER,
  );
}

/**
 * A log line for an unexpected error: the innermost cause's name and message only. Drizzle's
 * wrapper message embeds the SQL parameters (task text, hashes), so it never reaches the log.
 */
export function describeError(e: unknown): string {
  const innermost = chain(e).at(-1);
  if (innermost instanceof Error) return `${innermost.name}: ${innermost.message}`.slice(0, 500);
  return String(innermost).slice(0, 500);
}
