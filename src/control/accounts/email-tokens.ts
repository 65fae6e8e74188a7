import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../db";
import { emailTokens } from "../email-schema";
import { nowSql } from "../schema";
import { randomBase62, sha256Hex } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";

/**
 * Single-use links mailed to prove an address or to reset a password. The token is shown only in the mail;
 * D1 keeps its SHA-256, its purpose and its expiry. Using one is a single conditional UPDATE, so two clicks
 * at once cannot both succeed.
 */
export type EmailTokenPurpose = "verify" | "email_change" | "reset";

const TOKEN_PREFIX = "todo_mail_";
const TOKEN_SHAPE = /^todo_mail_[0-9A-Za-z]{43}$/;
export const TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * 3_600_000,
  email_change: 24 * 3_600_000,
  reset: 30 * 60_000,
};

export const INVALID_LINK =
  "This link is used, expired or not one we sent. Ask for a new one: links work once, for a limited time.";

/** A new token and the (not yet executed) insert that stores only its hash. */
export async function newEmailToken(db: Db, accountId: string, purpose: EmailTokenPurpose, address: string) {
  const token = TOKEN_PREFIX + randomBase62(43);
  const insert = db.insert(emailTokens).values({
    id: newId(),
    accountId,
    purpose,
    tokenHash: await sha256Hex(token),
    address,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
  });
  return { token, insert };
}

/**
 * Uses a token of one of `purposes`: marks it used and returns its row, or throws `invalid_token` (400) for a
 * token that is malformed, unknown, used, expired or of another purpose, without saying which.
 */
export async function useEmailToken(db: Db, token: string, purposes: readonly EmailTokenPurpose[]) {
  if (!TOKEN_SHAPE.test(token))
    throw new AppError("invalid_token", INVALID_LINK, [{ path: "token", message: "is not valid" }]);
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: nowSql })
    .where(
      and(
        eq(emailTokens.tokenHash, await sha256Hex(token)),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, nowSql),
      ),
    )
    .returning({ accountId: emailTokens.accountId, purpose: emailTokens.purpose, address: emailTokens.address });
  if (!row || !purposes.includes(row.purpose)) {
    throw new AppError("invalid_token", INVALID_LINK, [{ path: "token", message: "is not valid" }]);
  }
  return row;
}

/** When the account's newest link of this purpose was made, to pace "send again". */
export async function lastEmailTokenAt(
  db: Db,
  accountId: string,
  purpose: EmailTokenPurpose,
): Promise<number | undefined> {
  const [row] = await db
    .select({ createdAt: emailTokens.createdAt })
    .from(emailTokens)
    .where(and(eq(emailTokens.accountId, accountId), eq(emailTokens.purpose, purpose)))
    .orderBy(desc(emailTokens.createdAt))
    .limit(1);
  return row ? Date.parse(row.createdAt) : undefined;
}

/** Ends the account's unused links of these purposes (a newer one, a new password, a changed address). */
export const retireEmailTokens = (db: Db, accountId: string, purposes: EmailTokenPurpose[]) =>
  db
    .update(emailTokens)
    .set({ usedAt: nowSql })
    .where(
      and(
        eq(emailTokens.accountId, accountId),
        isNull(emailTokens.usedAt),
        or(...purposes.map((p) => eq(emailTokens.purpose, p))),
      ),
    );
