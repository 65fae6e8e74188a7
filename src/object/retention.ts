import { and, isNotNull, lte, lt, min, sql } from "drizzle-orm";
import { idempotencyKeys, lists, tasks } from "./schema";
import { nowSql } from "../domain/clock";
import type { AccountDb } from "./context";
import { AppError } from "../domain/errors";

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
 * An account's retention, run by its object's alarm (src/object/account-object.ts): task and list tombstones
 * older than 90 days, and expired idempotency records. One account is small enough to purge in one step.
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

/** An ISO time from the object's rows as milliseconds, or null when there is none. */
const millis = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/**
 * When purgeAccount next has something to delete: the oldest tombstone's 90 days or the first idempotency
 * record's expiry, each a second later (the purge deletes what is strictly older, and the database clock
 * may run a little ahead of the object's); null when there is neither. Each is one read of a partial or
 * plain index (tasks_deleted_at_idx, lists_deleted_at_idx, idempotency_keys_expires_at_idx).
 */
export function nextPurgeAt(db: AccountDb): number | null {
  const task = db
    .select({ at: min(tasks.deletedAt) })
    .from(tasks)
    .where(isNotNull(tasks.deletedAt))
    .get()?.at;
  const list = db
    .select({ at: min(lists.deletedAt) })
    .from(lists)
    .where(isNotNull(lists.deletedAt))
    .get()?.at;
  const record = db
    .select({ at: min(idempotencyKeys.expiresAt) })
    .from(idempotencyKeys)
    .get()?.at;
  const due = [millis(task) + TOMBSTONE_MS, millis(list) + TOMBSTONE_MS, millis(record)].filter(Number.isFinite);
  return due.length ? Math.min(...due) + 1000 : null;
}
