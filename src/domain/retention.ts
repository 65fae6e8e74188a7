import { sql } from "drizzle-orm";
import { billingEvents } from "../db/billing-schema";
import type { Db } from "../db/client";
import { idempotencyKeys, lists, nowSql, sessions, tasks } from "../db/schema";
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

/** Rows deleted per table and statement, so one run never holds the database for long. */
const CHUNK = 5_000;
const MAX_ROUNDS = 20;

export interface PurgeResult {
  tombstones: number;
  listTombstones: number;
  idempotencyKeys: number;
  sessions: number;
  billingEvents: number;
}

/**
 * The daily retention job (Cron Trigger): purges task and list tombstones older than 90 days,
 * expired idempotency records, expired or revoked sessions, and Stripe event ids past Stripe's retries
 * (an older event replayed after that is still refused by its subscription's ordering). Deletes in chunks until done.
 */
export async function purgeExpired(db: Db): Promise<PurgeResult> {
  const total: PurgeResult = { tombstones: 0, listTombstones: 0, idempotencyKeys: 0, sessions: 0, billingEvents: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [tombstones, listTombstones, keys, expiredSessions, events] = await db.batch([
      db.delete(tasks).where(sql`rowid IN (SELECT rowid FROM ${tasks} WHERE ${tasks.deletedAt} IS NOT NULL
        AND ${tasks.deletedAt} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${TOMBSTONE_DAYS} days`}) LIMIT ${CHUNK})`),
      db.delete(lists).where(sql`rowid IN (SELECT rowid FROM ${lists} WHERE ${lists.deletedAt} IS NOT NULL
        AND ${lists.deletedAt} < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${TOMBSTONE_DAYS} days`}) LIMIT ${CHUNK})`),
      db.delete(idempotencyKeys).where(sql`rowid IN (SELECT rowid FROM ${idempotencyKeys}
        WHERE ${idempotencyKeys.expiresAt} <= ${nowSql} LIMIT ${CHUNK})`),
      db.delete(sessions).where(sql`rowid IN (SELECT rowid FROM ${sessions}
        WHERE ${sessions.expiresAt} <= ${nowSql} OR ${sessions.revokedAt} IS NOT NULL LIMIT ${CHUNK})`),
      db.delete(billingEvents).where(sql`rowid IN (SELECT rowid FROM ${billingEvents} WHERE ${billingEvents.receivedAt}
        < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${BILLING_EVENT_DAYS} days`}) LIMIT ${CHUNK})`),
    ]);
    const counts = [tombstones, listTombstones, keys, expiredSessions, events].map((r) => r.meta.changes ?? 0);
    total.tombstones += counts[0]!;
    total.listTombstones += counts[1]!;
    total.idempotencyKeys += counts[2]!;
    total.sessions += counts[3]!;
    total.billingEvents += counts[4]!;
    if (counts.every((n) => n < CHUNK)) break;
  }
  return total;
}
