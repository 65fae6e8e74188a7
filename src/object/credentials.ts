import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { nowSql } from "../domain/clock";
import type { AccountDb } from "./context";
import { AppError } from "../domain/errors";
import { account, apiKeys, connections } from "./schema";

/**
 * What a task request shows, judged by the account's object on every request (no cache), so a key
 * revoked, a Max lapsed or a connection ended applies on the very next request.
 * - `key`: an API key, by its SHA-256 (REST and MCP).
 * - `connection`: an OAuth connection whose access token the provider has checked (MCP).
 * - `session`: the account page, whose session the Worker has judged in D1.
 */
export type TaskCredential =
  | { kind: "key"; keyHash: string }
  | { kind: "connection"; connectionId: string; generation: number }
  | { kind: "session" };

export const UNAUTHORIZED =
  "A valid API key is required: send `Authorization: Bearer todo_live_…` (create one under AI connection).";
const CONNECTION_ENDED =
  "This connection was revoked or has ended. Connect the app again (it will ask you to sign in and allow it).";
export const MAX_REQUIRED =
  "Task access needs an active Max membership. Upgrade on the account page, then retry with the same key.";

/** Whether a lastUsedAt is unset or over a minute old, as SQL: the use is recorded only then. */
const usedOverAMinuteAgo = (column: typeof apiKeys.lastUsedAt | typeof connections.lastUsedAt) =>
  sql<number>`(${column} IS NULL OR ${column} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds'))`;

/**
 * 401 for a key or connection that is unknown, revoked or expired; then its lastUsedAt, written at most
 * once a minute (one read per request, a write only when the minute has passed).
 */
function checkCredential(db: AccountDb, credential: TaskCredential): void {
  if (credential.kind === "session") return;
  if (credential.kind === "key") {
    const key = db
      .select({ id: apiKeys.id, stale: usedOverAMinuteAgo(apiKeys.lastUsedAt) })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.keyHash, credential.keyHash),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), sql`${apiKeys.expiresAt} > ${nowSql}`),
        ),
      )
      .get();
    if (!key) throw new AppError("unauthorized", UNAUTHORIZED);
    if (key.stale) db.update(apiKeys).set({ lastUsedAt: nowSql }).where(eq(apiKeys.id, key.id)).run();
    return;
  }
  const connection = db
    .select({ stale: usedOverAMinuteAgo(connections.lastUsedAt) })
    .from(connections)
    .where(
      and(
        eq(connections.id, credential.connectionId),
        isNull(connections.revokedAt),
        lte(connections.liveGeneration, credential.generation),
      ),
    )
    .get();
  if (!connection) throw new AppError("unauthorized", CONNECTION_ENDED);
  if (connection.stale)
    db.update(connections).set({ lastUsedAt: nowSql }).where(eq(connections.id, credential.connectionId)).run();
}

/** The account's row, read with its Max judged by the database clock. */
export const accountRow = (db: AccountDb) =>
  db
    .select({
      id: account.id,
      timeZone: account.timeZone,
      erasedAt: account.erasedAt,
      maxActive: sql<number>`${account.plan} = 'max' AND (${account.planExpiresAt} IS NULL OR ${account.planExpiresAt} > ${nowSql})`,
    })
    .from(account)
    .get();

/**
 * 401, then 403: the credential, then (for every verb but `identify`) the account's Max membership.
 * Returns the account's time zone, which the verb runs with. Runs inside the request's transaction, before its verb.
 */
export function authorize(db: AccountDb, credential: TaskCredential, maxRequired: boolean) {
  checkCredential(db, credential);
  const row = accountRow(db);
  if (!row || row.erasedAt) throw new AppError("unauthorized", UNAUTHORIZED);
  if (maxRequired && !row.maxActive) throw new AppError("max_required", MAX_REQUIRED);
  return { timeZone: row.timeZone };
}
