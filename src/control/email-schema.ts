import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { accounts } from "./schema";

/**
 * Links mailed to prove an address or to reset a password (control/accounts/email-tokens.ts). Only the token's
 * SHA-256 is stored; a token works once (`used_at`) and until `expires_at`.
 */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** verify: proves the account's address; email_change: makes `address` the account's; reset: a new password. */
    purpose: text("purpose", { enum: ["verify", "email_change", "reset"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address the link was mailed to: a link proves only that address, so it fails once the account's changed. */
    address: text("address").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [
    uniqueIndex("email_tokens_hash_unique").on(t.tokenHash),
    // "Send again" looks at the account's newest link of a purpose; the daily job drops expired ones.
    index("email_tokens_account_idx").on(t.accountId, t.purpose, t.createdAt),
    index("email_tokens_expires_idx").on(t.expiresAt),
  ],
);
