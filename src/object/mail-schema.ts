import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Reminders by email (issue 36 item 7), in the account's object so that its alarm mails without a D1 read.
 * The control plane writes the settings (`mailSettings` change, object/mail/settings.ts); the alarm queues and
 * sends (object/mail/outbox.ts).
 */

/** At most one row: the account's choice, and the verified address it was made for. */
export const mailSettings = sqliteTable("mail_settings", {
  /** Always "account": the table's one row. */
  id: text("id").primaryKey(),
  /** The account's verified address, kept in step by the control plane (a confirmed change of address). */
  email: text("email").notNull(),
  /** Reminders by email on: each reminder that fires is mailed once. */
  reminders: integer("reminders", { mode: "boolean" }).notNull().default(false),
  /** The daily digest's local time ("HH:MM", the account's time zone); null: no digest. */
  digestTime: text("digest_time"),
  /** The digest's next instant (ms since the epoch), kept by the alarm and every change of time or zone. */
  digestNextAt: integer("digest_next_at"),
  /** The one-click "stop these emails" link (signed by the Worker, which knows the public origin). */
  unsubscribeUrl: text("unsubscribe_url").notNull(),
});

/**
 * Mail to send, written in the transaction that fires its reminder (or its digest), keyed by what it is for
 * (`reminder:<task>:<at>`, `digest:<local date>`): a retried alarm cannot queue it twice, and a row goes once
 * its send is recorded. While a send is out the row is leased (`dueAt` moved ahead), as webhook deliveries are.
 */
export const mailOutbox = sqliteTable("mail_outbox", {
  id: text("id").primaryKey(),
  /** The composed message (domain/mail Mail), fixed when queued. */
  body: text("body", { mode: "json" }).notNull(),
  attempts: integer("attempts").notNull().default(0),
  dueAt: integer("due_at").notNull(),
});
