import { and, eq } from "drizzle-orm";
import type { Db } from "../db";
import { changeAccount } from "../account-client";
import { recordSecurityEvent } from "../security-events";
import { accounts, nowSql } from "../schema";
import { mailOn, sendMail } from "../mail/mailer";
import { emailChangeMail, emailChangeNotice, verificationMail } from "../mail/messages";
import { AppError } from "../../domain/errors";
import { lastEmailTokenAt, newEmailToken, retireEmailTokens, useEmailToken } from "./email-tokens";

/**
 * Proving an address: the link mailed at sign-up (and on "send again"), and the change of address, which applies
 * only when the new address follows its link. Mail is sent after the answer (`defer`): a slow mail service never
 * slows a sign-up, and a failed send is logged (mailer.ts).
 */
export type Defer = (work: Promise<unknown>) => void;

/** "Send again" waits this long after the last link, and sends at most this many a day. */
export const RESEND_AFTER_S = 60;

export const MAIL_OFF =
  "This deployment sends no email (its operator has not set up mail), so addresses cannot be verified or passwords reset by mail.";

export const verifyUrl = (origin: string, token: string) => `${origin}/verify?token=${encodeURIComponent(token)}`;

/** Mails a verification link to the account's address; nothing when mail is off. */
export async function sendVerification(
  db: Db,
  env: Env,
  account: { id: string; email: string },
  origin: string,
  defer: Defer,
) {
  if (!mailOn(env)) return;
  const link = await newEmailToken(db, account.id, "verify", account.email);
  await db.batch([retireEmailTokens(db, account.id, ["verify"]), link.insert]);
  defer(sendMail(env, verificationMail(account.email, verifyUrl(origin, link.token))));
}

/** "Send again": paced by the last link's age, so a button held down never floods an inbox. */
export async function resendVerification(db: Db, env: Env, accountId: string, origin: string, defer: Defer) {
  if (!mailOn(env)) throw new AppError("mail_off", MAIL_OFF);
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email, verifiedAt: accounts.emailVerifiedAt })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw new AppError("unauthorized", "The account no longer exists.");
  if (account.verifiedAt) return;
  const last = await lastEmailTokenAt(db, accountId, "verify");
  const wait = last === undefined ? 0 : Math.ceil(RESEND_AFTER_S - (Date.now() - last) / 1000);
  if (wait > 0) {
    throw new AppError(
      "rate_limited",
      `A link was sent less than a minute ago. Send again in ${wait} seconds.`,
      undefined,
      wait,
    );
  }
  await sendVerification(db, env, account, origin, defer);
}

/**
 * Uses a mailed link: a sign-up's proves the account's address; a change's makes its address the account's,
 * proven. Either fails (400) once the account's address is no longer the one the link was for.
 */
export async function verifyEmail(db: Db, env: Env, token: string): Promise<void> {
  const link = await useEmailToken(db, token, ["verify", "email_change"]);
  if (link.purpose === "verify") {
    const done = await db
      .update(accounts)
      .set({ emailVerifiedAt: nowSql })
      .where(and(eq(accounts.id, link.accountId), eq(accounts.email, link.address)))
      .returning({ id: accounts.id });
    if (done.length === 0)
      throw new AppError("invalid_token", "This link was for an address the account no longer uses.");
    return;
  }
  try {
    await db.batch([
      db.update(accounts).set({ email: link.address, emailVerifiedAt: nowSql }).where(eq(accounts.id, link.accountId)),
      retireEmailTokens(db, link.accountId, ["verify", "email_change", "reset"]),
      recordSecurityEvent(db, link.accountId, "email_changed", { address: link.address }),
    ]);
  } catch (e) {
    if (String((e as Error)?.message ?? e).includes("UNIQUE")) {
      throw new AppError(
        "email_taken",
        "Another account uses this address now. Ask for the change again with another one.",
      );
    }
    throw e;
  }
  // The account's object mails reminders to its own copy of the address (object/mail/settings.ts).
  await changeAccount(env, link.accountId, { kind: "email", email: link.address });
}

/** A change of address: a link to the new address, a notice to the old; nothing changes until the link is used. */
export async function requestEmailChange(
  db: Db,
  env: Env,
  account: { id: string; email: string },
  newEmail: string,
  origin: string,
  defer: Defer,
) {
  if (!mailOn(env)) throw new AppError("mail_off", MAIL_OFF);
  if (newEmail === account.email) {
    throw new AppError("validation_failed", "This is already the account's address.", [
      { path: "email", message: "is the current address" },
    ]);
  }
  const [taken] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, newEmail));
  if (taken)
    throw new AppError("email_taken", "An account with this email already exists.", [
      { path: "email", message: "already registered" },
    ]);
  const link = await newEmailToken(db, account.id, "email_change", newEmail);
  await db.batch([
    retireEmailTokens(db, account.id, ["email_change"]),
    link.insert,
    recordSecurityEvent(db, account.id, "email_change_requested", { address: newEmail }),
  ]);
  defer(sendMail(env, emailChangeMail(newEmail, account.email, verifyUrl(origin, link.token))));
  defer(sendMail(env, emailChangeNotice(account.email, newEmail, env.CONTACT_EMAIL)));
}

/**
 * Billing (and mail the service sends on its own) need a proven address: Stripe pre-fills it, and it is the only
 * way back into the account. Where mail is off no address can be proven, so nothing waits for it (docs/security.md).
 */
export function requireVerifiedEmail(env: Env, account: { emailVerified: boolean }) {
  if (mailOn(env) && !account.emailVerified) {
    throw new AppError(
      "email_unverified",
      "Verify your email address first: open the link mailed at sign-up, or send a new one (POST /auth/verify/resend).",
    );
  }
}
