import { and, asc, count, eq, isNotNull, isNull, lte, min, sql } from "drizzle-orm";
import { type Mail, sendMail } from "../../domain/mail/mailer";
import { NOTICE_LEASE_MS, NOTICE_RETRY_DELAYS_MS } from "../notice-retry";
import { digestMail, type MailedTask, reminderMail } from "../../domain/mail/reminder-messages";
import { floatingDate, toFloating } from "../../domain/tasks/wall-clock";
import type { AccountDb } from "../context";
import { account, mailOutbox, mailSettings, tasks } from "../schema";
import type { Event } from "../webhooks/outbox";
import { nextLocalTime, readMailSettings } from "./settings";

/**
 * Reminders by email, run by the object's alarm with the same once-only rule as webhook deliveries: a mail is
 * queued in the transaction that fires its reminder (whose row goes in that same transaction, tasks/reminders.ts),
 * keyed by what it is for, so a retried alarm neither fires nor queues it again. A send is leased while out and
 * its row deleted once sent; a failed send is retried after 1 min, 10 min and 1 h, then given up. Where mail is
 * off (no EMAIL binding or MAIL_FROM), nothing is queued and anything left is dropped: nothing is sent, nothing fails.
 */

const BATCH = 20;
/** Tasks a digest lists by name; the rest are counted. */
const DIGEST_TASKS = 25;

function queue(db: AccountDb, id: string, mail: Mail, now: number) {
  db.insert(mailOutbox).values({ id, body: mail, dueAt: now }).onConflictDoNothing().run();
}

/** In the alarm's firing transaction: one mail per fired reminder, when the account has reminders by email on. */
export function queueReminderMail(db: AccountDb, fired: Event[], now: number): void {
  const settings = readMailSettings(db);
  if (!settings?.reminders) return;
  for (const event of fired) {
    if (event.type !== "task.reminder") continue;
    const task = event.data;
    const mail = reminderMail(settings.email, { title: task.title, due: task.due }, settings.unsubscribeUrl);
    queue(db, `reminder:${task.id}:${task.reminder}`, mail, now);
  }
}

/**
 * The daily digest when its local time has come: the open tasks due that day or before. The next one is set in the
 * same transaction, so a retried alarm sends no second; a day with nothing due sends nothing.
 */
export function queueDigest(db: AccountDb, now: number, send: boolean): void {
  const settings = readMailSettings(db);
  if (!settings?.digestTime || settings.digestNextAt === null || settings.digestNextAt > now) return;
  const timeZone = db.select({ timeZone: account.timeZone }).from(account).get()?.timeZone ?? "UTC";
  const date = floatingDate(toFloating(settings.digestNextAt, timeZone));
  db.update(mailSettings)
    .set({ digestNextAt: nextLocalTime(now, settings.digestTime, timeZone) })
    .where(eq(mailSettings.id, settings.id))
    .run();
  if (!send) return;
  const due = and(
    isNull(tasks.deletedAt),
    eq(tasks.completed, false),
    isNotNull(tasks.due),
    lte(sql`substr(${tasks.due}, 1, 10)`, date),
  );
  const listed = db
    .select({ title: tasks.title, due: tasks.due })
    .from(tasks)
    .where(due)
    .orderBy(asc(tasks.due), asc(tasks.id))
    .limit(DIGEST_TASKS)
    .all() as MailedTask[];
  if (listed.length === 0) return;
  const total = db.select({ n: count() }).from(tasks).where(due).get()?.n ?? listed.length;
  queue(
    db,
    `digest:${date}`,
    digestMail(settings.email, date, listed, total - listed.length, settings.unsubscribeUrl),
    now,
  );
}

/** The alarm's mail, in its firing transaction: `send` is false where mail is off or Max has lapsed (as events). */
export function queueMail(db: AccountDb, fired: Event[], now: number, send: boolean): void {
  if (send) queueReminderMail(db, fired, now);
  queueDigest(db, now, send);
}

/** The earliest mail work: a queued send or the next digest; null when none. */
export function nextMailAt(db: AccountDb): number | null {
  const send =
    db
      .select({ at: min(mailOutbox.dueAt) })
      .from(mailOutbox)
      .get()?.at ?? null;
  const digest = readMailSettings(db)?.digestNextAt ?? null;
  const due = [send, digest].filter((at): at is number => at !== null);
  return due.length ? Math.min(...due) : null;
}

/** Sends the mail due at `now` (leased first, recorded after), or drops it all when mail is off. */
export async function sendDueMail(
  storage: DurableObjectStorage,
  db: AccountDb,
  env: Pick<Env, "MAIL_FROM"> & { EMAIL?: SendEmail },
  on: boolean,
  now: number,
): Promise<void> {
  if (!on) {
    db.delete(mailOutbox).run();
    return;
  }
  const due = storage.transactionSync(() => {
    const rows = db
      .select()
      .from(mailOutbox)
      .where(lte(mailOutbox.dueAt, now))
      .orderBy(asc(mailOutbox.dueAt))
      .limit(BATCH)
      .all();
    for (const row of rows)
      db.update(mailOutbox)
        .set({ dueAt: now + NOTICE_LEASE_MS })
        .where(eq(mailOutbox.id, row.id))
        .run();
    return rows;
  });
  await Promise.all(
    due.map(async (row) => {
      const sent = await sendMail(env, row.body as Mail);
      const delay = NOTICE_RETRY_DELAYS_MS[row.attempts];
      storage.transactionSync(() => {
        const key = eq(mailOutbox.id, row.id);
        if (sent || delay === undefined) db.delete(mailOutbox).where(key).run();
        else
          db.update(mailOutbox)
            .set({ attempts: row.attempts + 1, dueAt: now + delay })
            .where(key)
            .run();
      });
    }),
  );
}
