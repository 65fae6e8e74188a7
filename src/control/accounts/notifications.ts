import { AppError } from "../../domain/errors";
import { mailOn } from "../../domain/mail/mailer";
import { accountOfUnsubscribeToken, unsubscribeUrl } from "../../domain/mail/unsubscribe";
import { changeAccount, reachAccount } from "../account-client";
import type { Db } from "../db";
import { getAccount } from "./service";
import { MAIL_OFF } from "./verification";

/**
 * Reminders by email (issue 36 item 7): the account's choice lives in its object, which mails from its alarm with
 * no D1 read (object/mail/). Turning it on needs mail on (501 `mail_off`) and a verified address (403
 * `email_unverified`); turning it off needs neither. The one-click link in each mail turns it off without a session.
 */
export interface Notifications {
  emailReminders: boolean;
  dailyDigest: { enabled: boolean; time: string | null };
}

/** Why the choice cannot be turned on here, if it cannot: shown beside the page's control. */
export type MailUnavailable = "mail_off" | "email_unverified" | null;

const UNVERIFIED =
  "Reminders by email go only to a verified address: open the link mailed at sign-up, or send a new one (POST /auth/verify/resend).";

export async function getNotifications(db: Db, env: Env, accountId: string) {
  const [account, settings] = await Promise.all([
    getAccount(db, accountId),
    reachAccount(env, accountId, (object) => object.mailSettings()),
  ]);
  if (!account) throw new AppError("unauthorized", "The account no longer exists.");
  const unavailable: MailUnavailable = !mailOn(env) ? "mail_off" : account.emailVerified ? null : "email_unverified";
  const notifications: Notifications = {
    emailReminders: Boolean(settings?.reminders),
    dailyDigest: { enabled: Boolean(settings?.digestTime), time: settings?.digestTime ?? null },
  };
  return { ...notifications, unavailable };
}

export async function setNotifications(
  db: Db,
  env: Env,
  accountId: string,
  origin: string,
  input: { emailReminders: boolean; dailyDigest?: { enabled: boolean; time?: string } },
) {
  const digestTime = input.dailyDigest?.enabled ? (input.dailyDigest.time ?? "08:00") : null;
  const account = await getAccount(db, accountId);
  if (!account) throw new AppError("unauthorized", "The account no longer exists.");
  if (input.emailReminders || digestTime) {
    if (!mailOn(env)) throw new AppError("mail_off", MAIL_OFF);
    if (!account.emailVerified) throw new AppError("email_unverified", UNVERIFIED);
  }
  await changeAccount(env, accountId, {
    kind: "mailSettings",
    email: account.email,
    reminders: input.emailReminders,
    digestTime,
    unsubscribeUrl: await unsubscribeUrl(env.CREDENTIAL_SECRET, origin, accountId),
  });
  const notifications: Notifications = {
    emailReminders: input.emailReminders,
    dailyDigest: { enabled: digestTime !== null, time: digestTime },
  };
  // Reaching here, whatever was turned on could be: mail is on and the address verified.
  const unavailable: MailUnavailable = !mailOn(env) ? "mail_off" : account.emailVerified ? null : "email_unverified";
  return { ...notifications, unavailable };
}

export const INVALID_UNSUBSCRIBE =
  "This unsubscribe link is not valid. Use the link from the latest mail, or turn reminder emails off on the account page.";

/** The link's account, judged by its MAC alone (no I/O for a forged one); 400 when it is not this service's. */
export async function unsubscribeAccount(env: Env, token: string): Promise<string> {
  const accountId = await accountOfUnsubscribeToken(env.CREDENTIAL_SECRET, token);
  if (!accountId) throw new AppError("invalid_token", INVALID_UNSUBSCRIBE);
  return accountId;
}

/** The one-click POST: reminders and digest off. An erased account has nothing to stop: done all the same. */
export async function unsubscribe(env: Env, token: string): Promise<void> {
  const accountId = await unsubscribeAccount(env, token);
  try {
    await changeAccount(env, accountId, { kind: "stopMail" });
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "unauthorized") throw e;
  }
}
