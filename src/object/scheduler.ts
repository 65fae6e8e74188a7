import { min } from "drizzle-orm";
import type { AccountDb } from "./context";
import { nextPurgeAt } from "./retention";
import { nextReminderAt } from "./tasks/reminders";
import { webhookOutbox } from "./schema";
import { nextMailAt } from "./mail/outbox";
import { nextPushAt } from "./push/outbox";

/**
 * The object has one alarm, set only when it has work at a known time (the Rules of Durable Objects: an
 * object with nothing to do stays asleep). Its jobs (account-object.ts `alarm`), each with its next due time:
 * - retention: the oldest tombstone's 90 days, the first idempotency record's expiry (retention.ts);
 * - reminders: the earliest waiting reminder (tasks/reminders.ts);
 * - deliveries: the earliest due delivery attempt (delivery.ts);
 * - mail: the earliest queued reminder mail, or the daily digest (mail/outbox.ts);
 * - pushes: the earliest queued browser notification (push/outbox.ts).
 * The alarm is set to the earliest after every alarm and every call that may have added work; an
 * object with none of them has no alarm.
 */

/** The earliest due time of all jobs; null when there is no work. */
export function nextAlarmAt(db: AccountDb): number | null {
  const delivery =
    db
      .select({ at: min(webhookOutbox.dueAt) })
      .from(webhookOutbox)
      .get()?.at ?? null;
  const due = [delivery, nextReminderAt(db), nextPurgeAt(db), nextMailAt(db), nextPushAt(db)].filter(
    (at): at is number => at !== null,
  );
  return due.length ? Math.min(...due) : null;
}

/**
 * Sets the alarm to the earliest due job (nextAlarmAt), or deletes it when there is no work; a call that moved no
 * due time writes nothing. Storage calls only: no network I/O.
 */
export async function setAlarmFor(storage: DurableObjectStorage, db: AccountDb): Promise<void> {
  const at = nextAlarmAt(db);
  const set = await storage.getAlarm();
  if (at === set) return;
  if (at === null) await storage.deleteAlarm();
  else await storage.setAlarm(at);
}
