import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db";
import { nowSql, sessions } from "../schema";
import { AppError } from "../../domain/errors";
import { recordSecurityEvent } from "../security-events";

/** What a person sees of a session: never its token or hash. */
export interface SessionSummary {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
  userAgent: string | null;
  current: boolean;
}

/** A User-Agent is the client's own text: kept short so a session row stays small. */
export const MAX_USER_AGENT = 256;
export const cutUserAgent = (ua: string | null | undefined) => (ua ? ua.slice(0, MAX_USER_AGENT) : null);

const live = () => and(isNull(sessions.revokedAt), gt(sessions.expiresAt, nowSql));

/** The account's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(db: Db, accountId: string, currentId: string): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.accountId, accountId), live()))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
  return rows.map((row) => ({ ...row, current: row.id === currentId }));
}

/** Ends one live session of the account; another account's (or an ended) session is not found. */
export async function endSession(db: Db, accountId: string, id: string): Promise<void> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: nowSql })
    .where(and(eq(sessions.id, id), eq(sessions.accountId, accountId), live()))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new AppError("not_found", "No active session with this id.");
  await recordSecurityEvent(db, accountId, "session_ended");
}

/** "Sign out everywhere": every live session of the account, this one too; API keys and OAuth connections stay. */
export async function endAllSessions(db: Db, accountId: string, client: { userAgent?: string | null }) {
  await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: nowSql })
      .where(and(eq(sessions.accountId, accountId), live())),
    recordSecurityEvent(db, accountId, "signed_out_everywhere", { device: client.userAgent }),
  ]);
}

/** The statement that ends every live session of the account but `keepId` (for a batch). */
export const endOtherSessions = (db: Db, accountId: string, keepId: string) =>
  db
    .update(sessions)
    .set({ revokedAt: nowSql })
    .where(and(eq(sessions.accountId, accountId), ne(sessions.id, keepId), live()));

/**
 * SQL truth of "lastUsedAt is over a minute old": the refresh is skipped otherwise. A SQL fragment:
 * Drizzle has no builder for `strftime` with a modifier (the database clock).
 */
export const staleSessionSql = sql<number>`(${sessions.lastUsedAt} IS NULL OR ${sessions.lastUsedAt} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds'))`;

/** Used now: the session's 30 days start again (sliding), as the page's cookie does when it is sent again. */
export const touchSession = (db: Db, id: string, days: number) =>
  db
    .update(sessions)
    .set({ lastUsedAt: nowSql, expiresAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`+${days} days`})` })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
