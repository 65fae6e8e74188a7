import { eq } from "drizzle-orm";
import type { Db } from "../db";
import { accounts } from "../schema";
import { revokeAllConnections } from "../connections/service";
import { AppError } from "../../domain/errors";
import { hashPassword, verifyPassword } from "./password";
import { closeSessionSockets, endOtherSessions } from "./sessions";
import { recordSecurityEvent } from "../security-events";

/**
 * Acts that a stolen session must not be enough for (a new password, erasure) ask for the password
 * again. The caller counts the attempt against the sign-in limits first (transport/sign-in.ts).
 */
export interface AccountSecret {
  id: string;
  email: string;
  passwordHash: string;
}

export async function accountSecret(db: Db, accountId: string): Promise<AccountSecret> {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw new AppError("unauthorized", "The account no longer exists.");
  return row;
}

/** Throws `invalid_credentials` naming `field` when the password is not the account's. */
export async function confirmPassword(account: AccountSecret, password: string, field: string): Promise<void> {
  if (!(await verifyPassword(password, account.passwordHash))) {
    throw new AppError("invalid_credentials", "The password is incorrect.", [{ path: field, message: "is incorrect" }]);
  }
}

/**
 * The new password and the end of every other session, in one batch: a thief signed in elsewhere
 * is out the moment the password changes, their open sockets too. Every OAuth connection ends first (whoever connected an app
 * with the old password loses it); should the password write then fail, the person tries again with
 * the same password. API keys are left alone (they are separate credentials a person revokes one by
 * one), and device tokens die with the old hash they were signed with. Returns the ended connections'
 * grant ids, for the provider's KV clean-up.
 */
export async function changePassword(
  db: Db,
  env: Env,
  account: AccountSecret,
  keepSessionId: string,
  newPassword: string,
): Promise<{ grantIds: string[] }> {
  const passwordHash = await hashPassword(newPassword);
  const grantIds = await revokeAllConnections(db, env, account.id);
  await db.batch([
    db.update(accounts).set({ passwordHash }).where(eq(accounts.id, account.id)),
    endOtherSessions(db, account.id, keepSessionId),
    recordSecurityEvent(db, account.id, "password_changed"),
  ]);
  await closeSessionSockets(env, account.id, { all: true, keep: keepSessionId });
  return { grantIds };
}
