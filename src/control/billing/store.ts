import { and, desc, eq, isNull, lte, max, notInArray, or } from "drizzle-orm";
import { billingCustomers, billingEvents, billingSubscriptions } from "../billing-schema";
import type { Db } from "../db";
import { accounts, nowSql } from "../schema";
import { setMembership } from "../accounts/membership";
import { isEnded, nextState, type SubscriptionFacts, type SubscriptionState } from "./subscription";

/** Stripe's side of accounts in D1 (control/billing-schema.ts). The membership is written by setMembership only. */

/**
 * The account an event is about: `metadata.accountId` (or a Checkout Session's client_reference_id), which
 * only our own server sets and only a signed event carries, else the account its customer is linked to.
 * An account that was erased is found by neither: its events change nothing.
 */
export async function accountFor(db: Db, accountId: string | null, customerId: string | null) {
  if (accountId) {
    const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    if (row) return row.id;
  }
  if (!customerId) return undefined;
  const [linked] = await db
    .select({ accountId: billingCustomers.accountId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
    .orderBy(desc(billingCustomers.updatedAt));
  return linked?.accountId;
}

export const customerOf = async (db: Db, accountId: string) =>
  (
    await db
      .select({ customerId: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.accountId, accountId))
  )[0]?.customerId;

const linkCustomerQuery = (db: Db, accountId: string, customerId: string) =>
  db
    .insert(billingCustomers)
    .values({ accountId, customerId })
    .onConflictDoUpdate({ target: billingCustomers.accountId, set: { customerId, updatedAt: nowSql } });

/** checkout.session.completed: the account's Stripe customer, for the portal and for events without metadata. */
export async function linkCustomer(db: Db, accountId: string, customerId: string): Promise<void> {
  await linkCustomerQuery(db, accountId, customerId);
}

/** Whether this event id was applied before: Stripe retries, and anyone holding a signed event can resend it. */
export const wasProcessed = async (db: Db, eventId: string) =>
  (await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, eventId))).length > 0;

/** Recorded last, once the event's writes are done: a failure before it lets Stripe's retry apply it again. */
export const recordEvent = async (db: Db, eventId: string) => {
  await db.insert(billingEvents).values({ id: eventId }).onConflictDoNothing();
};

export interface StripeEventRef {
  id: string;
  /** Unix seconds, as Stripe sends it. */
  created: number;
}

/**
 * Applies one subscription event unless a newer one was applied already (its `created` is later, or it
 * ended the subscription), then writes the account's subscription grant: the latest end over all its
 * subscriptions. Returns whether the event changed the subscription.
 */
export async function applySubscription(
  db: Db,
  env: Env,
  accountId: string,
  facts: SubscriptionFacts,
  event: StripeEventRef,
): Promise<boolean> {
  const at = new Date(event.created * 1000).toISOString();
  const [previous] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, facts.id));
  const next: SubscriptionState = nextState(previous, facts, at);
  const state = { ...next, eventCreated: event.created, eventId: event.id, updatedAt: nowSql };
  // The same test again inside the write, so that of two events racing the older one loses there too.
  const newer = and(
    lte(billingSubscriptions.eventCreated, event.created),
    isEnded(next.status) ? undefined : notInArray(billingSubscriptions.status, ["canceled", "incomplete_expired"]),
  );
  const [applied] = await db.batch([
    db
      .insert(billingSubscriptions)
      .values({ id: facts.id, accountId, ...state })
      .onConflictDoUpdate({ target: billingSubscriptions.id, set: state, setWhere: newer })
      .returning({ id: billingSubscriptions.id }),
    ...(facts.customerId ? [linkCustomerQuery(db, accountId, facts.customerId)] : []),
  ]);
  if (applied.length === 0) return false;
  const [{ until } = { until: null }] = await db
    .select({ until: max(billingSubscriptions.maxUntil) })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.accountId, accountId));
  await setMembership(db, env, accountId, { source: "subscription", plan: until ? "max" : "free", expiresAt: until });
  // Paid again after a failure: the page's note goes.
  if (next.status === "active" || next.status === "trialing")
    await db
      .update(billingCustomers)
      .set({ paymentFailedAt: null })
      .where(and(eq(billingCustomers.accountId, accountId), lte(billingCustomers.paymentFailedAt, at)));
  return true;
}

/** invoice.payment_failed: a note on the account page, kept until a later event says the subscription is paid. */
export async function notePaymentFailed(db: Db, accountId: string, customerId: string | null, created: number) {
  const at = new Date(created * 1000).toISOString();
  const later = or(isNull(billingCustomers.paymentFailedAt), lte(billingCustomers.paymentFailedAt, at));
  if (customerId)
    await db
      .insert(billingCustomers)
      .values({ accountId, customerId, paymentFailedAt: at })
      .onConflictDoUpdate({ target: billingCustomers.accountId, set: { paymentFailedAt: at }, setWhere: later });
  else
    await db
      .update(billingCustomers)
      .set({ paymentFailedAt: at })
      .where(and(eq(billingCustomers.accountId, accountId), later));
}

export interface BillingStatus {
  customer: boolean;
  paymentFailedAt: string | null;
  subscription: { status: string; currentPeriodEnd: string | null; cancelAt: string | null } | null;
}

/** What the account page shows: whether Manage billing applies, the latest subscription, a failed payment. */
export async function billingOf(db: Db, accountId: string): Promise<BillingStatus> {
  const [customers, subscriptions] = await db.batch([
    db
      .select({ paymentFailedAt: billingCustomers.paymentFailedAt })
      .from(billingCustomers)
      .where(eq(billingCustomers.accountId, accountId)),
    db
      .select({
        status: billingSubscriptions.status,
        currentPeriodEnd: billingSubscriptions.currentPeriodEnd,
        cancelAt: billingSubscriptions.cancelAt,
      })
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.accountId, accountId))
      .orderBy(desc(billingSubscriptions.eventCreated))
      .limit(1),
  ]);
  return {
    customer: customers.length > 0,
    paymentFailedAt: customers[0]?.paymentFailedAt ?? null,
    subscription: subscriptions[0] ?? null,
  };
}

/** What Stripe said about the account, as D1 keeps it, for the export (GDPR art. 15): the customer and each subscription. */
export async function exportBilling(db: Db, accountId: string) {
  const [customer] = await db
    .select({
      customerId: billingCustomers.customerId,
      paymentFailedAt: billingCustomers.paymentFailedAt,
      updatedAt: billingCustomers.updatedAt,
    })
    .from(billingCustomers)
    .where(eq(billingCustomers.accountId, accountId));
  const subscriptions = await db
    .select({
      id: billingSubscriptions.id,
      status: billingSubscriptions.status,
      currentPeriodEnd: billingSubscriptions.currentPeriodEnd,
      cancelAt: billingSubscriptions.cancelAt,
      pastDueSince: billingSubscriptions.pastDueSince,
      maxUntil: billingSubscriptions.maxUntil,
      updatedAt: billingSubscriptions.updatedAt,
    })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.accountId, accountId))
    .orderBy(billingSubscriptions.updatedAt, billingSubscriptions.id);
  return { customer: customer ?? null, subscriptions };
}
