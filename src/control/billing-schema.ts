import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { accounts } from "./schema";

/**
 * Stripe's side of an account (issue 29, docs/billing.md), in D1 with the rest of the control plane.
 * The membership itself is not here: a subscription's grant is written through `setMembership`
 * (control/accounts/membership.ts) like an operator's, and these tables only remember what Stripe said.
 */

/** The Stripe customer of an account: linked by checkout.session.completed or a subscription's metadata. */
export const billingCustomers = sqliteTable(
  "billing_customers",
  {
    accountId: text("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** `cus_…`: the Billing Portal opens for it, and events without `metadata.accountId` find the account by it. */
    customerId: text("customer_id").notNull(),
    /** The last invoice.payment_failed (RFC 3339), shown on the page until a later event says the subscription is paid. */
    paymentFailedAt: text("payment_failed_at"),
    updatedAt: text("updated_at").notNull().default(nowSql),
  },
  (t) => [index("billing_customers_customer_idx").on(t.customerId)],
);

/** Each subscription's last applied state: what it grants, and the event that said so (ordering). */
export const billingSubscriptions = sqliteTable(
  "billing_subscriptions",
  {
    /** `sub_…` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    currentPeriodEnd: text("current_period_end"),
    /** When a cancellation takes effect (cancel_at_period_end or cancel_at); null while it renews. */
    cancelAt: text("cancel_at"),
    /** When it first turned past_due: the 7-day grace runs from here. */
    pastDueSince: text("past_due_since"),
    /** Max until this instant because of this subscription; null: it never gave Max. */
    maxUntil: text("max_until"),
    /** `created` (Unix seconds) of the last event applied: an older one never overrides it. */
    eventCreated: integer("event_created").notNull(),
    eventId: text("event_id").notNull(),
    updatedAt: text("updated_at").notNull().default(nowSql),
  },
  (t) => [index("billing_subscriptions_account_idx").on(t.accountId)],
);

/** Event ids already processed: a replay (Stripe retries, or a resend) answers 200 and changes nothing. */
export const billingEvents = sqliteTable(
  "billing_events",
  {
    /** `evt_…` */
    id: text("id").primaryKey(),
    receivedAt: text("received_at").notNull().default(nowSql),
  },
  (t) => [index("billing_events_received_idx").on(t.receivedAt)],
);
