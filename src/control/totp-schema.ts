import { integer, sqliteTable, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { accounts } from "./schema";

/**
 * One-time codes as a second factor (control/accounts/totp.ts): the account's TOTP secret and, once confirmed, its
 * recovery codes (SHA-256 only). `lastStep` is the newest 30-second step a code was accepted for: a code is refused
 * for that step or an older one, so an observed code cannot be used again.
 */
export const totpFactors = sqliteTable("totp_factors", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  /** Base32, as authenticator apps read it. */
  secret: text("secret").notNull(),
  /** NULL until a first code confirms it: sign-in asks for codes only from then on. */
  enabledAt: text("enabled_at"),
  lastStep: integer("last_step").notNull().default(0),
  createdAt: text("created_at").notNull().default(nowSql),
});

export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [
    uniqueIndex("recovery_codes_hash_unique").on(t.codeHash),
    index("recovery_codes_account_idx").on(t.accountId),
  ],
);
