import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, json, signUp } from "../helpers";
import { deliver, event, sign, subscription, WEBHOOK_SECRET } from "./support";

/** What the billing tables and the membership hold for an account: "nothing written" is checked against it. */
async function billingRows(accountId: string) {
  const count = (sql: string) =>
    env.DB.prepare(sql)
      .bind(accountId)
      .first<{ n: number }>()
      .then((row) => row!.n);
  return {
    customers: await count("SELECT count(*) AS n FROM billing_customers WHERE account_id = ?"),
    subscriptions: await count("SELECT count(*) AS n FROM billing_subscriptions WHERE account_id = ?"),
    membership: await env.DB.prepare("SELECT plan, expires_at FROM memberships WHERE account_id = ?")
      .bind(accountId)
      .first(),
  };
}

const membershipOf = async (session: string) => (await json(await call("/account", { token: session }))).membership;

describe("POST /billing/stripe/webhook: what it accepts", () => {
  it("refuses a body signed with another secret: 400 problem+json, nothing written", async () => {
    const user = await signUp("bad-sig");
    const evt = event("customer.subscription.updated", subscription({ accountId: user.accountId }));
    const before = await billingRows(user.accountId);
    const res = await deliver(evt, sign(JSON.stringify(evt, null, 2), { secret: "whsec_someone_else" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(res)).errors[0].path).toBe("Stripe-Signature");
    expect(await billingRows(user.accountId)).toEqual(before);
    expect((await membershipOf(user.session)).active).toBe(false);
  });

  it("refuses a signature over other bytes (the body changed after signing)", async () => {
    const user = await signUp("tampered");
    const evt = event("customer.subscription.updated", subscription({ accountId: user.accountId }));
    const header = sign(JSON.stringify({ ...evt, id: "evt_other" }, null, 2));
    expect((await deliver(evt, header)).status).toBe(400);
    expect((await billingRows(user.accountId)).subscriptions).toBe(0);
  });

  it("refuses a missing Stripe-Signature header: 400, nothing written", async () => {
    const user = await signUp("no-sig");
    const res = await deliver(
      event("customer.subscription.updated", subscription({ accountId: user.accountId })),
      null,
    );
    expect(res.status).toBe(400);
    expect((await json(res)).detail).toMatch(/missing/);
    expect((await billingRows(user.accountId)).subscriptions).toBe(0);
  });

  it("refuses a correctly signed event whose timestamp is outside the SDK's 5-minute tolerance", async () => {
    const user = await signUp("old-sig");
    const evt = event("customer.subscription.updated", subscription({ accountId: user.accountId }));
    const stale = sign(JSON.stringify(evt, null, 2), { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect((await deliver(evt, stale)).status).toBe(400);
  });

  it("answers 200 to a type it does not handle, and changes nothing", async () => {
    const res = await deliver(event("customer.created", { id: "cus_unknown", object: "customer" }));
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ received: true, outcome: "ignored" });
  });

  it("sends no CORS headers: no browser has business here", async () => {
    const res = await deliver(event("customer.created", { id: "cus_x" }), undefined);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("does not exist while STRIPE_WEBHOOK_SECRET is unset (404)", async () => {
    const res = await deliver(event("customer.created", { id: "cus_x" }), undefined, { STRIPE_WEBHOOK_SECRET: "" });
    expect(res.status).toBe(404);
  });

  it("is a secret of the test set-up, not a placeholder", () => {
    expect(WEBHOOK_SECRET).toMatch(/^whsec_/);
  });
});

describe("POST /billing/stripe/webhook: once, in order, for existing accounts only", () => {
  it("applies a replayed event once: the second delivery answers 200 and changes nothing", async () => {
    const user = await signUp("replay");
    const sub = subscription({ accountId: user.accountId });
    const first = event("customer.subscription.updated", sub);
    expect(await json(await deliver(first))).toMatchObject({ outcome: "applied" });
    // The subscription then ends; a resend of the first event must not bring Max back.
    await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }));
    const ended = await billingRows(user.accountId);
    const replay = await deliver(first);
    expect(replay.status).toBe(200);
    expect(await json(replay)).toEqual({ received: true, outcome: "replayed" });
    expect(await billingRows(user.accountId)).toEqual(ended);
    expect((await membershipOf(user.session)).active).toBe(false);
  });

  it("does not let an older event, arriving late, undo a newer state", async () => {
    const user = await signUp("order");
    const sub = subscription({ accountId: user.accountId });
    const now = Math.floor(Date.now() / 1000);
    await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }, { created: now }));
    const late = await deliver(event("customer.subscription.updated", sub, { created: now - 60 }));
    expect(await json(late)).toMatchObject({ outcome: "stale" });
    expect((await membershipOf(user.session)).active).toBe(false);
  });

  it("does not let a later-created but stale 'active' revive a deleted subscription", async () => {
    const user = await signUp("ended");
    const sub = subscription({ accountId: user.accountId });
    const now = Math.floor(Date.now() / 1000);
    await deliver(event("customer.subscription.deleted", { ...sub, status: "canceled" }, { created: now }));
    await deliver(event("customer.subscription.updated", sub, { created: now + 1 }));
    expect((await membershipOf(user.session)).active).toBe(false);
  });

  it("applies a newer event after an older one, in order", async () => {
    const user = await signUp("in-order");
    const sub = subscription({ accountId: user.accountId, status: "incomplete" });
    const now = Math.floor(Date.now() / 1000);
    await deliver(event("customer.subscription.created", sub, { created: now - 5 }));
    expect((await membershipOf(user.session)).active).toBe(false);
    await deliver(event("customer.subscription.updated", { ...sub, status: "active" }, { created: now }));
    expect((await membershipOf(user.session)).active).toBe(true);
  });

  it("writes nothing for an account that was erased: 200, no row anywhere", async () => {
    const user = await signUp("erased");
    const erased = await call("/account", { method: "DELETE", token: user.session, body: { password: user.password } });
    expect(erased.status).toBe(204);
    const evt = event(
      "customer.subscription.updated",
      subscription({ accountId: user.accountId, customer: "cus_erased" }),
    );
    const res = await deliver(evt);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ outcome: "no_account" });
    expect(await billingRows(user.accountId)).toEqual({ customers: 0, subscriptions: 0, membership: null });
    const events = await env.DB.prepare("SELECT count(*) AS n FROM billing_events WHERE id = ?")
      .bind(evt.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(0);
  });

  it("finds the account by the linked customer when the subscription carries no metadata", async () => {
    const user = await signUp("by-customer");
    const customer = `cus_link_${user.accountId.slice(0, 8)}`;
    await deliver(
      event("checkout.session.completed", {
        id: "cs_test_link",
        object: "checkout.session",
        client_reference_id: user.accountId,
        customer,
        mode: "subscription",
      }),
    );
    await deliver(event("customer.subscription.created", subscription({ customer })));
    expect((await membershipOf(user.session)).active).toBe(true);
  });
});
