import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { accounts } from "./schema";

/**
 * The account's audit trail (control/security-events.ts): what happened to its sign-in and recovery, with the
 * device that did it, kept 90 days (retention.ts) and shown on the account page and in the export.
 */
export const securityEvents = sqliteTable(
  "security_events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    at: text("at").notNull().default(nowSql),
    /** The client's User-Agent, cut short (sessions.ts `cutUserAgent`); NULL where no browser acted. */
    device: text("device"),
    /** A small JSON object of the event's facts (the sign-in method, the app connected); never a secret. */
    detail: text("detail"),
  },
  (t) => [index("security_events_account_at_idx").on(t.accountId, t.at), index("security_events_at_idx").on(t.at)],
);
