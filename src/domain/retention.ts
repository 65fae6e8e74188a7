import { and, isNotNull, lte, lt, or, sql } from "drizzle-orm";
import { idempotencyKeys, lists, tasks } from "../account/schema";
import type { Db } from "../db/client";
import { nowSql, sessions } from "../db/schema";
import type { AccountDb } from "./context";
import { AppError } from "./errors";

/** Tombstones of deleted tasks and lists are kept this long; a `since` older than that is 410 sync_expired. */
export const TOMBSTONE_DAYS = 90;
export const TOMBSTONE_MS = TOMBSTONE_DAYS * 86_400_000;

/** 410 `sync_expired` when `since` is older than the tombstones kept; `instead` says what to do. */
export function expiredSince(since: string | undefined, instead: string): AppError | undefined {
  if (!since || Date.parse(since) >= Date.now() - TOMBSTONE_MS) return undefined;
  return new AppError(
    "sync_expired",
    `\`since\` is older than ${TOMBSTONE_DAYS} days, so deletions before it are forgotten. ${instead}`,
  );
}

/** Idempotency-Key records answer replays for this long. */
export const IDEMPOTENCY_HOURS = 24;

export interface AccountPurge {
  tombstones: number;
  listTombstones: number;
  idempotencyKeys: number;
}

/**
 * An account's retention, run by its object's daily alarm (src/account/object.ts): task and list
 * tombstones older than 90 days, and expired idempotency records. One account is small enough to
 * purge in one step.
 */
export function purgeAccount(db: AccountDb): AccountPurge {
  const before = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${TOMBSTONE_DAYS} days`})`;
  return {
    tombstones: db
      .delete(tasks)
      .where(and(isNotNull(tasks.deletedAt), lt(tasks.deletedAt, before)))
      .returning({ id: tasks.id })
      .all().length,
    listTombstones: db
      .delete(lists)
      .where(and(isNotNull(lists.deletedAt), lt(lists.deletedAt, before)))
      .returning({ id: lists.id })
      .all().length,
    idempotencyKeys: db
      .delete(idempotencyKeys)
      .where(lte(idempotencyKeys.expiresAt, nowSql))
      .returning({ key: idempotencyKeys.key })
      .all().length,
  };
}

/** Sessions deleted per statement, so one run never holds the database for long. */
const CHUNK = 5_000;
const MAX_ROUNDS = 20;

/** The daily job's part in D1 (Cron Trigger): expired or revoked sessions, in chunks until done. */
export async function purgeSessions(db: Db): Promise<number> {
  let total = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = await db.delete(sessions).where(sql`rowid IN (SELECT rowid FROM ${sessions}
        WHERE ${or(lte(sessions.expiresAt, nowSql), isNotNull(sessions.revokedAt))} LIMIT ${CHUNK})`);
    total += result.meta.changes ?? 0;
    if ((result.meta.changes ?? 0) < CHUNK) break;
  }
  return total;
}
