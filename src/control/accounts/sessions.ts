import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db";
import { nowSql, sessions } from "../schema";
import { AppError } from "../../domain/errors";
import type { EndedSessions } from "../../object/changes";
import { changeAccount } from "../account-client";
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

/**
 * Tells the account's object that sessions ended, once D1 has ended them, so their sockets on the live stream
 * close at once (4401). D1 goes first: its write is what refuses the token from the next request on, so no
 * upgrade judged after it opens a socket the object would then miss. The object does not judge sessions (it cannot see D1's rows, and a
 * session's socket is not judged again on resume), so should this call fail, the sign-out still stands but
 * those sockets stay open, hearing the account's changes, until they drop, Max lapses or newer sockets replace
 * them: logged, not thrown, since a person must always be able to sign out.
 */
export async function closeSessionSockets(env: Env, accountId: string, ended: EndedSessions) {
  await changeAccount(env, accountId, { kind: "sessionsEnded", ...ended }).catch((e) =>
    console.error("sessions' sockets not closed", accountId, String((e as Error)?.message ?? e)),
  );
}

/** Ends one live session of the account; another account's (or an ended) session is not found. */
export async function endSession(db: Db, env: Env, accountId: string, id: string): Promise<void> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: nowSql })
    .where(and(eq(sessions.id, id), eq(sessions.accountId, accountId), live()))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new AppError("not_found", "No active session with this id.");
  await recordSecurityEvent(db, accountId, "session_ended");
  await closeSessionSockets(env, accountId, { ids: [id] });
}

/** "Sign out everywhere": every live session of the account, this one too; API keys and OAuth connections stay. */
export async function endAllSessions(db: Db, env: Env, accountId: string, client: { userAgent?: string | null }) {
  await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: nowSql })
      .where(and(eq(sessions.accountId, accountId), live())),
    recordSecurityEvent(db, accountId, "signed_out_everywhere", { device: client.userAgent }),
  ]);
  await closeSessionSockets(env, accountId, { all: true });
}

/**
 * The statement that ends every live session of the account but `keepId` (for a batch); then
 * `closeSessionSockets(env, accountId, { all: true, keep: keepId })` closes their sockets.
 */
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
