import * as z from "zod";
import type { Db } from "../db";
import { accountFor, applySubscription, linkCustomer, notePaymentFailed, recordEvent, wasProcessed } from "./store";
import type { SubscriptionFacts } from "./subscription";

/**
 * What a verified Stripe event does (issue 29, docs/billing.md). The event arrives here already
 * verified (http/stripe.ts); its object is read field by field, so a payload of another API version
 * degrades to "nothing to do" rather than a crash, and nothing of the SDK loads with the domain.
 */
export interface StripeEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: Record<string, unknown> };
}

/**
 * The envelope every Stripe event has, whatever its API version. A signed event without it (no `data`,
 * `created: "yesterday"`, an `id` that is an object) is refused with a 400 (http/stripe.ts): Stripe
 * retries a 500 for three days, and such an event will never read any better.
 */
export const StripeEventShape: z.ZodType<StripeEvent> = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().positive(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

export type EventOutcome = "applied" | "replayed" | "stale" | "ignored" | "no_account";

export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_failed",
] as const;

type Fields = Record<string, unknown>;
const record = (value: unknown): Fields => (value && typeof value === "object" ? (value as Fields) : {});
const text = (value: unknown) => (typeof value === "string" && value ? value : null);
/** A reference that is an id, or an expanded object with one. */
const idOf = (value: unknown) => text(value) ?? text(record(value).id);
const isoOf = (seconds: unknown) => (typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : null);

/** Since API version 2025-03-31 the period's end is on each item; before, on the subscription. */
function periodEndOf(subscription: Fields): string | null {
  const items = record(subscription.items).data;
  const ends = (Array.isArray(items) ? items : [])
    .map((item) => record(item).current_period_end)
    .filter((end): end is number => typeof end === "number");
  return isoOf(ends.length ? Math.max(...ends) : subscription.current_period_end);
}

export function subscriptionFacts(object: unknown, deleted: boolean): SubscriptionFacts | undefined {
  const subscription = record(object);
  const id = text(subscription.id);
  if (!id) return undefined;
  const currentPeriodEnd = periodEndOf(subscription);
  return {
    id,
    status: text(subscription.status) ?? "unknown",
    deleted,
    currentPeriodEnd,
    cancelAt: isoOf(subscription.cancel_at) ?? (subscription.cancel_at_period_end === true ? currentPeriodEnd : null),
    accountId: text(record(subscription.metadata).accountId),
    customerId: idOf(subscription.customer),
  };
}

/** The invoice's subscription metadata: under `parent` since API version 2025-03-31, before at the top. */
function invoiceAccountId(invoice: Fields): string | null {
  const details = record(invoice.parent).subscription_details ?? invoice.subscription_details;
  return text(record(record(details).metadata).accountId);
}

/**
 * Applies one event at most once per id; a replay answers like the first time and changes nothing.
 * Events about no account (never linked, or erased since) write nothing at all.
 */
export async function applyStripeEvent(db: Db, env: Env, event: StripeEvent): Promise<EventOutcome> {
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return "ignored";
  if (await wasProcessed(db, event.id)) return "replayed";
  const outcome = await apply(db, env, event);
  if (outcome !== "no_account") await recordEvent(db, event.id);
  return outcome;
}

async function apply(db: Db, env: Env, event: StripeEvent): Promise<EventOutcome> {
  const object = record(event.data.object);
  if (event.type === "checkout.session.completed") {
    const accountId = text(object.client_reference_id) ?? text(record(object.metadata).accountId);
    const customerId = idOf(object.customer);
    const account = accountId && (await accountFor(db, accountId, null));
    if (!account || !customerId) return "no_account";
    await linkCustomer(db, account, customerId);
    return "applied";
  }
  if (event.type === "invoice.payment_failed") {
    const customerId = idOf(object.customer);
    const account = await accountFor(db, invoiceAccountId(object), customerId);
    if (!account) return "no_account";
    await notePaymentFailed(db, account, customerId, event.created);
    return "applied";
  }
  const facts = subscriptionFacts(object, event.type === "customer.subscription.deleted");
  const account = facts && (await accountFor(db, facts.accountId, facts.customerId));
  if (!facts || !account) return "no_account";
  return (await applySubscription(db, env, account, facts, event)) ? "applied" : "stale";
}
