import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";

/**
 * Browser notifications for reminders (Web Push, issue 37 item 4), in the account's object so that its alarm
 * pushes without a D1 read. The tasks page stores a device's subscription (object/push/subscriptions.ts); the
 * alarm queues and sends (object/push/outbox.ts).
 */

/** One device's push subscription: the browser's `PushSubscription` (RFC 8030 endpoint, RFC 8291 keys). */
export const pushSubscriptions = sqliteTable("push_subscriptions", {
  id: text("id").primaryKey(),
  /** The push service's URL for this device: unique, so subscribing the same device again keeps one row. */
  endpoint: text("endpoint").notNull().unique(),
  /** The device's P-256 public key (65 bytes, base64url), which the payload is encrypted to. */
  p256dh: text("p256dh").notNull(),
  /** The device's 16-byte authentication secret (base64url). */
  auth: text("auth").notNull(),
  /** What the device was, in words ("Chrome on Linux"), from its User-Agent when it subscribed. */
  device: text("device").notNull(),
  createdAt: text("created_at").notNull().default(nowSql),
});

/**
 * Pushes to send, written in the transaction that fires their reminder, one per subscription, keyed by what
 * each is for (`<subscription>:<task>:<reminder>`): a retried alarm cannot queue one twice, and a row goes once
 * its send is recorded. While a send is out the row is leased (`dueAt` moved ahead), as mail and webhooks are.
 */
export const pushOutbox = sqliteTable(
  "push_outbox",
  {
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id").notNull(),
    /** The message (domain/push/message.ts), JSON, encrypted for the device only when it is sent. */
    body: text("body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    dueAt: integer("due_at").notNull(),
  },
  (t) => [index("push_outbox_subscription").on(t.subscriptionId)],
);
