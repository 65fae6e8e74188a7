import { mailOn } from "../domain/mail/mailer";
import { vapidOf } from "../domain/push/config";
import type { AccountDb } from "./context";
import { queueMail, sendDueMail } from "./mail/outbox";
import { queuePush, sendDuePush } from "./push/outbox";
import { fireReminders } from "./tasks/reminders";
import { enqueue, type Event } from "./webhooks/outbox";

/** What the reminders' channels read from the Worker's configuration: mail (EMAIL, MAIL_FROM) and push (VAPID). */
type ChannelEnv = Pick<Env, "MAIL_FROM" | "VAPID_PUBLIC_KEY" | "VAPID_SUBJECT"> & {
  EMAIL?: SendEmail;
  VAPID_PRIVATE_KEY?: string;
};

/**
 * The alarm's reminders (account-object.ts): those due at `now` fire in one transaction with what they raise, so a
 * retried alarm raises nothing twice: webhook events, reminder mail and browser notifications, all for an active
 * Max only (a lapsed account's reminders pass without them), mail and pushes only where they are on. The caller
 * sends the events to open sockets once it has committed.
 */
export function fireDueReminders(
  storage: DurableObjectStorage,
  db: AccountDb,
  env: ChannelEnv,
  { maxActive, now }: { maxActive: boolean; now: number },
): Event[] {
  return storage.transactionSync(() => {
    const fired = fireReminders(db, now);
    if (maxActive) enqueue(db, fired, now);
    queueMail(db, fired, now, maxActive && mailOn(env));
    if (maxActive && vapidOf(env)) queuePush(db, fired, now);
    return fired;
  });
}

/** Then the mail and the pushes that are due, queued now or by an earlier alarm (each outbox leases its rows). */
export const sendDueNotices = (storage: DurableObjectStorage, db: AccountDb, env: ChannelEnv, now: number) =>
  Promise.all([sendDueMail(storage, db, env, mailOn(env), now), sendDuePush(storage, db, vapidOf(env), now)]);
