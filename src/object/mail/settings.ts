import { eq } from "drizzle-orm";
import { floatingDate, floatingMidnight, fromFloating, toFloating } from "../../domain/tasks/wall-clock";
import type { AccountDb } from "../context";
import { account, mailSettings } from "../schema";

/**
 * The account's reminder-mail settings in its object (mail-schema.ts), written by the control plane's changes
 * (changes.ts): the Worker has checked the address is verified and mail is on before it turns them on.
 */
export interface MailSettingsChange {
  kind: "mailSettings";
  email: string;
  reminders: boolean;
  /** "HH:MM" in the account's time zone, or null for no digest. */
  digestTime: string | null;
  unsubscribeUrl: string;
}

const ROW = "account";
const DAY_MS = 86_400_000;

/** The next instant after `now` at which the wall clock in `timeZone` reads `time` ("HH:MM"). */
export function nextLocalTime(now: number, time: string, timeZone: string): number {
  const [h, m] = time.split(":").map(Number);
  const today = floatingMidnight(floatingDate(toFloating(now, timeZone))) + (h! * 60 + m!) * 60_000;
  const at = fromFloating(today, timeZone);
  return at > now ? at : fromFloating(today + DAY_MS, timeZone);
}

export const readMailSettings = (db: AccountDb) => db.select().from(mailSettings).where(eq(mailSettings.id, ROW)).get();

const timeZoneOf = (db: AccountDb) => db.select({ timeZone: account.timeZone }).from(account).get()?.timeZone ?? "UTC";

/** Sets the choice; the digest's next instant follows its time, in the account's zone. */
export function applyMailSettings(db: AccountDb, change: MailSettingsChange, now = Date.now()): void {
  const digestNextAt = change.digestTime ? nextLocalTime(now, change.digestTime, timeZoneOf(db)) : null;
  const values = {
    email: change.email,
    reminders: change.reminders,
    digestTime: change.digestTime,
    digestNextAt,
    unsubscribeUrl: change.unsubscribeUrl,
  };
  db.insert(mailSettings)
    .values({ id: ROW, ...values })
    .onConflictDoUpdate({ target: mailSettings.id, set: values })
    .run();
}

/** A confirmed change of address: later mail goes to the new one. */
export const applyEmailChange = (db: AccountDb, email: string) =>
  db.update(mailSettings).set({ email }).where(eq(mailSettings.id, ROW)).run();

/** "Stop these emails": reminders and the digest off, whatever else the account has. */
export const stopMail = (db: AccountDb) =>
  db
    .update(mailSettings)
    .set({ reminders: false, digestTime: null, digestNextAt: null })
    .where(eq(mailSettings.id, ROW))
    .run();

/** A new time zone moves the digest to its local time there. */
export function rescheduleDigest(db: AccountDb, timeZone: string, now = Date.now()): void {
  const row = readMailSettings(db);
  if (!row?.digestTime) return;
  db.update(mailSettings)
    .set({ digestNextAt: nextLocalTime(now, row.digestTime, timeZone) })
    .where(eq(mailSettings.id, ROW))
    .run();
}
