import { afterEach, describe, expect, it } from "vitest";
import { callWith } from "../hardening/support";
import { call, json, signUp } from "../helpers";
import { signUpWithMail } from "../support/mailbox";
import { BILLING_ON, deliver, event, stripeStandIn, subscription, UNREACHABLE } from "./support";

/**
 * Checkout and the portal against a local stand-in of Stripe's API (support.ts: STRIPE_API_BASE points the
 * SDK at it, and it answers the SDK's real HTTP requests), checking the parameters Stripe would receive.
 */

let standIn: ReturnType<typeof stripeStandIn> | undefined;
afterEach(() => standIn?.restore());

const billing = (path: string, token: string, patch: Partial<Env> = BILLING_ON) =>
  callWith(patch, path, { method: "POST", token, body: {} });

describe("POST /account/billing/checkout", () => {
  it("creates a subscription Checkout Session for the account and answers its url", async () => {
    standIn = stripeStandIn();
    const user = await signUp("checkout");
    const res = await billing("/account/billing/checkout", user.session);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await json(res)).toEqual({ url: "https://checkout.stripe.test/c/pay/cs_test_1" });
    expect(standIn.requests).toHaveLength(1);
    const [sent] = standIn.requests;
    expect(sent!.method).toBe("POST");
    expect(sent!.path).toBe("/v1/checkout/sessions");
    expect(sent!.authorization).toBe(`Bearer ${BILLING_ON.STRIPE_SECRET_KEY}`);
    expect(sent!.params).toEqual({
      mode: "subscription",
      "line_items[0][price]": "price_test_max",
      "line_items[0][quantity]": "1",
      client_reference_id: user.accountId,
      "metadata[accountId]": user.accountId,
      "subscription_data[metadata][accountId]": user.accountId,
      customer_email: user.email,
      success_url: "http://example.com/?checkout=success#billing",
      cancel_url: "http://example.com/#billing",
    });
  });

  it("reuses the account's Stripe customer once it has one, instead of the email", async () => {
    const user = await signUp("checkout-again");
    await deliver(
      event("customer.subscription.updated", subscription({ accountId: user.accountId, customer: "cus_again" })),
    );
    standIn = stripeStandIn();
    expect((await billing("/account/billing/checkout", user.session)).status).toBe(200);
    expect(standIn.requests[0]!.params.customer).toBe("cus_again");
    expect(standIn.requests[0]!.params).not.toHaveProperty("customer_email");
  });

  it("builds its return URLs on PUBLIC_ORIGIN, not on the request's host", async () => {
    standIn = stripeStandIn();
    const user = await signUp("checkout-origin");
    await billing("/account/billing/checkout", user.session, {
      ...BILLING_ON,
      PUBLIC_ORIGIN: "https://todo.example.com",
    });
    expect(standIn.requests[0]!.params.cancel_url).toBe("https://todo.example.com/#billing");
  });

  it("answers 503 when Stripe cannot be reached, and 401 without a session before anything else", async () => {
    standIn = stripeStandIn();
    const user = await signUp("checkout-down");
    const down = await billing("/account/billing/checkout", user.session, {
      ...BILLING_ON,
      STRIPE_API_BASE: UNREACHABLE,
    });
    expect(down.status).toBe(503);
    expect((await json(down)).code).toBe("unavailable");
    expect((await callWith(BILLING_ON, "/account/billing/checkout", { method: "POST", body: {} })).status).toBe(401);
  });
});

describe("POST /account/billing/portal", () => {
  it("opens the Billing Portal for the account's customer, back to the page", async () => {
    const user = await signUp("portal");
    await deliver(
      event("checkout.session.completed", {
        id: "cs_test_portal",
        object: "checkout.session",
        client_reference_id: user.accountId,
        customer: "cus_portal",
      }),
    );
    standIn = stripeStandIn();
    const res = await billing("/account/billing/portal", user.session);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ url: "https://billing.stripe.test/p/session/bps_1" });
    expect(standIn.requests.map((r) => [r.path, r.params])).toEqual([
      ["/v1/billing_portal/sessions", { customer: "cus_portal", return_url: "http://example.com/#billing" }],
    ]);
  });

  it("is 404 for an account without a Stripe customer, and asks Stripe nothing", async () => {
    standIn = stripeStandIn();
    const user = await signUp("portal-none");
    const res = await billing("/account/billing/portal", user.session);
    expect(res.status).toBe(404);
    expect((await json(res)).detail).toMatch(/upgrade/i);
    expect(standIn.requests).toEqual([]);
  });
});

describe("billing switched off", () => {
  it.each(["/account/billing/checkout", "/account/billing/portal"])(
    "%s is 404 without STRIPE_SECRET_KEY (the page then shows the contact line)",
    async (path) => {
      const user = await signUp("billing-off");
      expect((await billing(path, user.session, {})).status).toBe(404);
      expect(await json(await call("/account/billing", { token: user.session }))).toMatchObject({ enabled: false });
    },
  );

  it("GET /account/billing shows the page what it needs once billing is on", async () => {
    const user = await signUp("billing-status");
    const periodEnd = Math.floor(Date.now() / 1000) + 5 * 86_400;
    await deliver(
      event(
        "customer.subscription.updated",
        subscription({ accountId: user.accountId, periodEnd, cancelAtPeriodEnd: true }),
      ),
    );
    await deliver(event("invoice.payment_failed", { id: "in_1", object: "invoice", customer: "cus_unlinked" }));
    const res = await callWith(BILLING_ON, "/account/billing", { token: user.session });
    expect(await json(res)).toEqual({
      enabled: true,
      customer: true,
      paymentFailedAt: null,
      subscription: {
        status: "active",
        currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
        cancelAt: new Date(periodEnd * 1000).toISOString(),
      },
    });
  });

  it("invoice.payment_failed puts a note on the page until a later event says the subscription is paid", async () => {
    const user = await signUp("payment-failed");
    const customer = `cus_fail_${user.accountId.slice(0, 8)}`;
    const sub = subscription({ accountId: user.accountId, customer });
    const now = Math.floor(Date.now() / 1000);
    await deliver(event("customer.subscription.created", sub, { created: now - 10 }));
    await deliver(event("invoice.payment_failed", { id: "in_2", object: "invoice", customer }, { created: now - 5 }));
    const noted = await json(await callWith(BILLING_ON, "/account/billing", { token: user.session }));
    expect(noted.paymentFailedAt).toBe(new Date((now - 5) * 1000).toISOString());
    await deliver(event("customer.subscription.updated", sub, { created: now }));
    const paid = await json(await callWith(BILLING_ON, "/account/billing", { token: user.session }));
    expect(paid.paymentFailedAt).toBeNull();
  });
});

describe("a verified address", () => {
  it("is needed for checkout and the portal once mail is on; without Stripe both stay 404 whatever the address", async () => {
    standIn = stripeStandIn();
    const { box, email, session } = await signUpWithMail();
    for (const path of ["/account/billing/checkout", "/account/billing/portal"]) {
      const refused = await billing(path, session, { ...BILLING_ON, ...box.env });
      expect(refused.status, path).toBe(403);
      expect(await json(refused)).toMatchObject({ code: "email_unverified" });
      expect((await billing(path, session, box.env)).status, path).toBe(404);
    }
    expect(standIn.requests).toEqual([]);

    const token = box.tokenFor(email, "/verify");
    expect((await callWith(box.env, "/auth/verify", { body: { token } })).status).toBe(204);
    expect((await billing("/account/billing/checkout", session, { ...BILLING_ON, ...box.env })).status).toBe(200);
  });
});
