import { describe, expect, it } from "vitest";
import { call, createKey, grant, json, signUp } from "../helpers";
import { deliver, event, subscription } from "./support";

/** The membership follows the subscription (issue 29's table), through the real webhook and GET /account. */

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const membershipOf = async (session: string) => (await json(await call("/account", { token: session }))).membership;

async function subscribed(label: string, init: Parameters<typeof subscription>[0] = {}, created = now()) {
  const user = await signUp(label);
  const sub = subscription({ accountId: user.accountId, ...init });
  const res = await deliver(event("customer.subscription.updated", sub, { created }));
  expect(res.status).toBe(200);
  return { user, sub, membership: await membershipOf(user.session) };
}

describe("the membership follows the subscription", () => {
  it.each(["active", "trialing"])("%s: Max until the period's end, plus a day for clock skew", async (status) => {
    const periodEnd = now() + 30 * DAY;
    const { membership } = await subscribed(status, { status, periodEnd });
    expect(membership).toEqual({ plan: "max", active: true, expiresAt: iso(periodEnd + DAY) });
  });

  it("past_due: Max for 7 days from the failure, not from each later event", async () => {
    const failedAt = now() - 2 * DAY;
    const { user, sub, membership } = await subscribed(
      "past-due",
      { status: "past_due", periodEnd: now() - 2 * DAY },
      failedAt,
    );
    expect(membership).toEqual({ plan: "max", active: true, expiresAt: iso(failedAt + 7 * DAY) });
    await deliver(event("customer.subscription.updated", sub, { created: now() }));
    expect((await membershipOf(user.session)).expiresAt).toBe(iso(failedAt + 7 * DAY));
  });

  it("past_due for more than 7 days: no longer Max", async () => {
    const { membership } = await subscribed("past-due-long", { status: "past_due" }, now() - 8 * DAY);
    expect(membership.active).toBe(false);
  });

  it.each(["canceled", "unpaid", "incomplete_expired"])("%s: not Max from that moment", async (status) => {
    const { user, sub } = await subscribed(`ended-${status}`);
    const at = now();
    await deliver(event("customer.subscription.updated", { ...sub, status }, { created: at }));
    expect(await membershipOf(user.session)).toEqual({ plan: "max", active: false, expiresAt: iso(at) });
  });

  it("deleted: not Max from that moment", async () => {
    const { user, sub } = await subscribed("deleted");
    await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }));
    expect((await membershipOf(user.session)).active).toBe(false);
  });

  it("cancel_at_period_end: Max until the period's end (not a day past), and the page is told when", async () => {
    const periodEnd = now() + 10 * DAY;
    const { user, membership } = await subscribed("cancel-later", { periodEnd, cancelAtPeriodEnd: true });
    expect(membership).toEqual({ plan: "max", active: true, expiresAt: iso(periodEnd) });
    // Billing's page routes are off without STRIPE_SECRET_KEY; the webhook alone still keeps the membership.
    const billing = await json(await call("/account/billing", { token: user.session }));
    expect(billing).toMatchObject({ enabled: false, subscription: { cancelAt: iso(periodEnd) } });
  });

  it("incomplete (first payment pending) never gives Max, and its expiry says nothing ended", async () => {
    const { membership } = await subscribed("incomplete", { status: "incomplete" });
    expect(membership).toEqual({ plan: "free", active: false, expiresAt: null });
  });
});

describe("an operator's grant and a subscription combine: the later end wins", () => {
  it("a grant without an end outlasts a deleted subscription", async () => {
    const { user, sub } = await subscribed("grant-forever");
    expect((await grant(user.email, "max", null)).status).toBe(200);
    await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }));
    expect(await membershipOf(user.session)).toEqual({ plan: "max", active: true, expiresAt: null });
  });

  it("a subscription outlasts a shorter grant, and a grant of Free does not end it", async () => {
    const periodEnd = now() + 60 * DAY;
    const { user } = await subscribed("grant-shorter", { periodEnd });
    await grant(user.email, "max", iso(now() + 5 * DAY));
    expect((await membershipOf(user.session)).expiresAt).toBe(iso(periodEnd + DAY));
    await grant(user.email, "free");
    expect(await membershipOf(user.session)).toEqual({ plan: "max", active: true, expiresAt: iso(periodEnd + DAY) });
  });

  it("a longer grant wins over the subscription's end", async () => {
    const { user } = await subscribed("grant-longer", { periodEnd: now() + 10 * DAY });
    const until = iso(now() + 400 * DAY);
    await grant(user.email, "max", until);
    expect((await membershipOf(user.session)).expiresAt).toBe(until);
  });
});

describe("done when (issue 29)", () => {
  it("a signed customer.subscription.updated gives the account's key 200 at once; .deleted makes it 403", async () => {
    const user = await signUp("done-when");
    const { key } = await createKey(user.session);
    expect((await call("/api/v1/tasks", { token: key })).status).toBe(403);
    const { id: accountId } = await json(await call("/account", { token: user.session }));
    const sub = subscription({ accountId, status: "active", periodEnd: now() + 30 * DAY });
    expect((await deliver(event("customer.subscription.updated", sub))).status).toBe(200);
    expect((await call("/api/v1/tasks", { token: key })).status).toBe(200);
    expect((await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }))).status).toBe(200);
    const refused = await call("/api/v1/tasks", { token: key });
    expect(refused.status).toBe(403);
    // The problem says where to upgrade: the page's billing section.
    expect(await json(refused)).toMatchObject({ code: "max_required", upgradeUrl: "http://example.com/#billing" });
  });
});
