import { eq, min } from "drizzle-orm";
import type { AccountDb } from "../domain/context";
import { nextReminderAt } from "../domain/tasks/reminders";
import { jobs, webhookOutbox } from "./schema";

/**
 * The object has one alarm; these are the jobs it runs (object.ts `alarm`), each with its next due
 * time. The alarm is set to the earliest: after every alarm, and after every write that adds work
 * (an event queued, a reminder moved).
 * - retention: at least daily (purgeAccount, and the D1 clean-up of an upgrade), its time in `jobs`;
 *   it runs on every alarm, so its time only says when the alarm must come back at the latest;
 * - reminders: the earliest waiting reminder (tasks/reminders.ts);
 * - deliveries: the earliest due delivery attempt (delivery.ts).
 */

export const DAY_MS = 86_400_000;
const RETENTION = "retention";

/** When the daily retention is next due; an object from before the scheduler gets a day from now. */
export function retentionDueAt(db: AccountDb, now: number): number {
  const row = db.select({ dueAt: jobs.dueAt }).from(jobs).where(eq(jobs.name, RETENTION)).get();
  if (row) return row.dueAt;
  postponeRetention(db, now);
  return now + DAY_MS;
}

export function postponeRetention(db: AccountDb, now: number): void {
  const dueAt = now + DAY_MS;
  db.insert(jobs).values({ name: RETENTION, dueAt }).onConflictDoUpdate({ target: jobs.name, set: { dueAt } }).run();
}

/** The earliest due time of all jobs. */
export function nextAlarmAt(db: AccountDb, now: number): number {
  const delivery =
    db
      .select({ at: min(webhookOutbox.dueAt) })
      .from(webhookOutbox)
      .get()?.at ?? null;
  const reminder = nextReminderAt(db);
  return Math.min(retentionDueAt(db, now), delivery ?? Number.POSITIVE_INFINITY, reminder ?? Number.POSITIVE_INFINITY);
}
