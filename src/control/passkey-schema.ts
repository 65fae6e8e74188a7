import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { accounts } from "./schema";

/**
 * Passkeys (WebAuthn credentials, control/accounts/passkeys.ts). The id is the credential id as the browser sends
 * it (base64url), so a usernameless sign-in finds its account from the assertion alone. Only the public key is
 * stored: a copy of this table signs nobody in.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The authenticator's signature counter: an assertion must raise it (unless the authenticator keeps it at 0). */
    counter: integer("counter").notNull().default(0),
    /** JSON array of the transports the browser reported ("internal", "hybrid", "usb", …), hints for the next ceremony. */
    transports: text("transports").notNull().default("[]"),
    createdAt: text("created_at").notNull().default(nowSql),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("passkeys_account_idx").on(t.accountId)],
);

/**
 * The challenges handed out with ceremony options, each taken (deleted) by the one verification that uses it, so
 * an assertion cannot be replayed even by authenticators whose counter stays at 0. Five minutes at most; expired
 * rows are swept whenever a new challenge is stored. `accountId` binds a registration or confirmation challenge
 * to the session's account; a sign-in challenge has none (usernameless).
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: ["register", "sign_in", "confirm"] }).notNull(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);
