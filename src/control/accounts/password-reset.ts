import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db";
import { accounts, nowSql } from "../schema";
import { revokeAllConnections } from "../connections/service";
import { mailOn, sendMail } from "../mail/mailer";
import { passwordChangedNotice, passwordResetMail } from "../mail/messages";
import { AppError } from "../../domain/errors";
import { lastEmailTokenAt, newEmailToken, retireEmailTokens, useEmailToken } from "./email-tokens";
import { hashPassword } from "./password";
import { closeSessionSockets, endOtherSessions } from "./sessions";
import { recordSecurityEvent } from "../security-events";
import { normalizeEmail } from "./service";
import { type Defer, MAIL_OFF, RESEND_AFTER_S } from "./verification";

export const resetUrl = (origin: string, token: string) => `${origin}/reset?token=${encodeURIComponent(token)}`;

/**
 * "Forgot password": the same 202 for every address. The answer waits for one indexed SELECT whether or not the
 * address has an account; everything else (the link's insert, the mail) runs after it (`defer`), so neither the
 * status nor the time tells who has an account. One link a minute per account at most: a script cannot flood
 * someone's inbox, and its extra requests look exactly like the first.
 */
export async function requestPasswordReset(db: Db, env: Env, email: string, origin: string, defer: Defer) {
  if (!mailOn(env)) throw new AppError("mail_off", MAIL_OFF);
  const address = normalizeEmail(email);
  const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, address));
  if (!account) return;
  defer(
    (async () => {
      const last = await lastEmailTokenAt(db, account.id, "reset");
      if (last !== undefined && Date.now() - last < RESEND_AFTER_S * 1000) return;
      const link = await newEmailToken(db, account.id, "reset", address);
      await link.insert;
      await sendMail(env, passwordResetMail(address, resetUrl(origin, link.token)));
    })().catch((e) => console.error("password reset link not made", String((e as Error)?.message ?? e))),
  );
}

/**
 * A new password from a reset link, with the sign-up rule. Like a password change it ends every OAuth connection
 * and, unlike it, every session and its open sockets (the person resetting may not hold any of them); API keys stay. Using the link
 * also proves the address. Returns the ended connections' grant ids, for the provider's KV clean-up.
 */
export async function confirmPasswordReset(db: Db, env: Env, token: string, newPassword: string, defer: Defer) {
  const link = await useEmailToken(db, token, ["reset"]);
  const owner = and(eq(accounts.id, link.accountId), eq(accounts.email, link.address));
  const [account] = await db.select({ id: accounts.id }).from(accounts).where(owner);
  if (!account) throw new AppError("invalid_token", "This link was for an address the account no longer uses.");
  const passwordHash = await hashPassword(newPassword);
  const grantIds = await revokeAllConnections(db, env, link.accountId);
  await db.batch([
    db
      .update(accounts)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, ${nowSql})` })
      .where(owner),
    endOtherSessions(db, link.accountId, ""),
    retireEmailTokens(db, link.accountId, ["reset"]),
    recordSecurityEvent(db, link.accountId, "password_reset"),
  ]);
  await closeSessionSockets(env, link.accountId, { all: true });
  defer(sendMail(env, passwordChangedNotice(link.address, env.CONTACT_EMAIL)));
  return { accountId: link.accountId, grantIds };
}
