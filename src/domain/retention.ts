import { and, isNotNull, lte, lt, min, or, sql } from "drizzle-orm";
import { idempotencyKeys, lists, tasks } from "../account/schema";
import { billingEvents } from "../db/billing-schema";
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

/** Processed Stripe event ids are kept this long: Stripe retries an event for up to 3 days. */
export const BILLING_EVENT_DAYS = 30;

/** Idempotency-Key records answer replays for this long. */
export const IDEMPOTENCY_HOURS = 24;

export interface AccountPurge {
  tombstones: number;
  listTombstones: number;
  idempotencyKeys: number;
}

/**
 * An account's retention, run by its object's alarm (src/account/object.ts): task and list tombstones
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

/** Rows deleted per statement, so one run never holds the database for long. */
const CHUNK = 5_000;
const MAX_ROUNDS = 20;

export interface ControlPlanePurge {
  sessions: number;
  billingEvents: number;
}

/**
 * The daily job's part in D1 (Cron Trigger): expired or revoked sessions, and Stripe event ids past
 * Stripe's retries (an older event replayed after that is still refused by its subscription's ordering).
 * In chunks until done.
 */
export async function purgeControlPlane(db: Db): Promise<ControlPlanePurge> {
  const total: ControlPlanePurge = { sessions: 0, billingEvents: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [expiredSessions, events] = await db.batch([
      db.delete(sessions).where(sql`rowid IN (SELECT rowid FROM ${sessions}
        WHERE ${or(lte(sessions.expiresAt, nowSql), isNotNull(sessions.revokedAt))} LIMIT ${CHUNK})`),
      db.delete(billingEvents).where(sql`rowid IN (SELECT rowid FROM ${billingEvents} WHERE ${billingEvents.receivedAt}
        < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${BILLING_EVENT_DAYS} days`}) LIMIT ${CHUNK})`),
    ]);
    const counts = [expiredSessions, events].map((r) => r.meta.changes ?? 0);
    total.sessions += counts[0]!;
    total.billingEvents += counts[1]!;
    if (counts.every((n) => n < CHUNK)) break;
  }
  return total;
}
