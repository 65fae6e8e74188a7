import type { AccountDb } from "./context";
import { queueMail } from "./mail/outbox";
import { fireReminders } from "./tasks/reminders";
import { enqueue, type Event } from "./webhooks/outbox";

/**
 * The alarm's reminders (account-object.ts): those due at `now` fire in one transaction with what they raise, so a
 * retried alarm raises nothing twice: webhook events and reminder mail, both for an active Max only (a lapsed
 * account's reminders pass without them). The caller sends the events to open sockets once it has committed.
 */
export function fireDueReminders(
  storage: DurableObjectStorage,
  db: AccountDb,
  { maxActive, mail, now }: { maxActive: boolean; mail: boolean; now: number },
): Event[] {
  return storage.transactionSync(() => {
    const fired = fireReminders(db, now);
    if (maxActive) enqueue(db, fired, now);
    queueMail(db, fired, now, maxActive && mail);
    return fired;
  });
}
