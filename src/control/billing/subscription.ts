/**
 * How a Stripe subscription's status becomes Max (issue 29, docs/billing.md). Pure: the previous state
 * and one event in, the next state out; store.ts reads and writes it, setMembership applies `maxUntil`.
 */

const DAY_MS = 86_400_000;
/** An active subscription keeps Max a day past its period's end, so a renewal event a little late does not lapse it. */
export const CLOCK_SKEW_MS = DAY_MS;
/** past_due: Max for this long from the failure, while Stripe retries the payment. */
export const GRACE_MS = 7 * DAY_MS;

/** What one event says of a subscription, reduced to what the rule reads. Times are RFC 3339 UTC. */
export interface SubscriptionFacts {
  id: string;
  status: string;
  /** customer.subscription.deleted: ended, whatever status the object carries. */
  deleted: boolean;
  currentPeriodEnd: string | null;
  /** When a cancellation takes effect (cancel_at_period_end, or cancel_at); null while it renews. */
  cancelAt: string | null;
  /** `metadata.accountId`, set by our Checkout Session (subscription_data.metadata). */
  accountId: string | null;
  customerId: string | null;
}

export interface SubscriptionState {
  status: string;
  currentPeriodEnd: string | null;
  cancelAt: string | null;
  pastDueSince: string | null;
  /** Max until this instant because of this subscription; null: it never gave Max. */
  maxUntil: string | null;
}

/** Stripe never brings these back: a later event saying otherwise is an older one that arrived late. */
const ENDED = new Set(["canceled", "incomplete_expired"]);
export const isEnded = (status: string) => ENDED.has(status);

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const earlier = (a: string, b: string) => (a < b ? a : b);

/**
 * The state after an event created at `at`. The membership follows the status:
 * - active, trialing: Max until the period's end plus a day; with a cancellation scheduled, until it takes effect;
 * - past_due: Max for 7 days from the failure (when it first turned past_due);
 * - anything else (canceled, unpaid, incomplete_expired, incomplete, paused, or deleted): not Max from
 *   that moment; a subscription that never gave Max does not start now.
 */
export function nextState(
  previous: SubscriptionState | undefined,
  facts: SubscriptionFacts,
  at: string,
): SubscriptionState {
  const status = facts.deleted ? "canceled" : facts.status;
  const pastDueSince =
    status === "past_due" ? ((previous?.status === "past_due" ? previous.pastDueSince : null) ?? at) : null;
  const state = { status, currentPeriodEnd: facts.currentPeriodEnd, cancelAt: facts.cancelAt, pastDueSince };
  return { ...state, maxUntil: maxUntil(state, previous, at) };
}

function maxUntil(
  state: Omit<SubscriptionState, "maxUntil">,
  previous: SubscriptionState | undefined,
  at: string,
): string | null {
  if (state.status === "active" || state.status === "trialing") {
    if (!state.currentPeriodEnd) return null;
    const renewsUntil = plus(state.currentPeriodEnd, CLOCK_SKEW_MS);
    return state.cancelAt ? earlier(state.cancelAt, renewsUntil) : renewsUntil;
  }
  if (state.status === "past_due" && state.pastDueSince) return plus(state.pastDueSince, GRACE_MS);
  return previous?.maxUntil ? earlier(previous.maxUntil, at) : null;
}
