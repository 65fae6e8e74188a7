import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { getAccount } from "../control/accounts/service";
import { requireVerifiedEmail } from "../control/accounts/verification";
import { applyStripeEvent } from "../control/billing/events";
import { billingOf, customerOf } from "../control/billing/store";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { body, json, session } from "./account-schemas";
import { PUBLIC, routesFor } from "./access";
import { readWithin } from "../transport/body";
import { errorResponses } from "../transport/problem";
import { absoluteUrl } from "../transport/public-origin";
import { billingConfig, billingEnabled, fromStripeError, stripeClient, verifiedEvent } from "./stripe";

/** Self-serve Max through Stripe (docs/billing.md): the page's billing routes and Stripe's webhook. */

/** Where the page's membership section is: Checkout and the portal come back there, and `max_required` points there. */
export const BILLING_PATH = "/#billing";

const BillingStatus = z
  .object({
    enabled: z.boolean().openapi({
      description: "Billing is set up (STRIPE_SECRET_KEY, STRIPE_PRICE_ID): the page offers Checkout and the portal.",
    }),
    customer: z.boolean().openapi({ description: "The account has a Stripe customer: the billing portal can open." }),
    paymentFailedAt: z
      .string()
      .nullable()
      .openapi({ description: "The last failed payment, until a later event says the subscription is paid." }),
    subscription: z
      .object({
        status: z.string().openapi({ description: "Stripe's status: active, trialing, past_due, canceled, …" }),
        currentPeriodEnd: z.string().nullable(),
        cancelAt: z
          .string()
          .nullable()
          .openapi({ description: "When a scheduled cancellation ends it; Max stays until then." }),
      })
      .nullable()
      .openapi({ description: "The latest subscription, or null." }),
  })
  .openapi("BillingStatus");

const Redirect = z.object({ url: z.string().openapi({ description: "A Stripe page: send the browser there." }) });
const NoFields = z.strictObject({});

/** Session routes: registered on the account routes' SESSION line (account.ts), so their guards come from there. */
/** What the two routes that send the browser to Stripe answer: its URL, or why not. */
const toStripe = {
  200: { description: "Where to send the browser.", ...json(Redirect) },
  ...errorResponses(
    "validation_failed",
    "unauthorized",
    "email_unverified",
    "not_found",
    "payload_too_large",
    "rate_limited",
    "unavailable",
  ),
};

export function registerBillingRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/billing",
      operationId: "getBilling",
      security: session,
      description:
        "The account's billing state for the page; `enabled` is false while billing is not set up (the page then shows the contact line).",
      responses: {
        200: { description: "Billing state.", ...json(BillingStatus) },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) =>
      c.json({ enabled: billingEnabled(c.env), ...(await billingOf(c.var.db, c.var.caller.accountId)) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/billing/checkout",
      operationId: "createCheckout",
      security: session,
      description: "A Stripe Checkout Session for the Max subscription, back to the page afterwards.",
      request: body(NoFields),
      responses: toStripe,
    }),
    async (c) => {
      const { priceId } = billingConfig(c.env);
      const accountId = c.var.caller.accountId;
      const [account, customer] = await Promise.all([getAccount(c.var.db, accountId), customerOf(c.var.db, accountId)]);
      if (!account) throw new AppError("unauthorized", "The account no longer exists.");
      requireVerifiedEmail(c.env, account);
      const page = (path: string) => absoluteUrl(c.env, c.req.url, path);
      const stripe = await stripeClient(c.env);
      const checkout = await stripe.checkout.sessions
        .create({
          mode: "subscription",
          line_items: [{ price: priceId, quantity: 1 }],
          client_reference_id: accountId,
          metadata: { accountId },
          subscription_data: { metadata: { accountId } },
          // One Stripe customer per account: the portal then shows every subscription it ever had.
          ...(customer ? { customer } : { customer_email: account.email }),
          success_url: page("/?checkout=success#billing"),
          cancel_url: page(BILLING_PATH),
        })
        .catch((e) => Promise.reject(fromStripeError(e)));
      if (!checkout.url) throw fromStripeError(new Error("Checkout Session without a url"));
      return c.json({ url: checkout.url }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/billing/portal",
      operationId: "createBillingPortal",
      security: session,
      description: "A Stripe Billing Portal session (card, invoices, cancellation). 404 before the first Checkout.",
      request: body(NoFields),
      responses: toStripe,
    }),
    async (c) => {
      billingConfig(c.env);
      const accountId = c.var.caller.accountId;
      const [account, customer] = await Promise.all([getAccount(c.var.db, accountId), customerOf(c.var.db, accountId)]);
      if (!account) throw new AppError("unauthorized", "The account no longer exists.");
      requireVerifiedEmail(c.env, account);
      if (!customer) throw new AppError("not_found", "This account has no billing yet: upgrade to Max first.");
      const stripe = await stripeClient(c.env);
      const portal = await stripe.billingPortal.sessions
        .create({ customer, return_url: absoluteUrl(c.env, c.req.url, BILLING_PATH) })
        .catch((e) => Promise.reject(fromStripeError(e)));
      return c.json({ url: portal.url }, 200);
    },
  );
}

/** Stripe events are a few KiB; this bounds what an unauthenticated caller can make the Worker read. */
const MAX_EVENT_BYTES = 512 * 1024;

/** Stripe's webhook: public (Stripe signs, it does not log in), no CORS (no browser calls it), the raw body. */
export const createBillingWebhookApp = () => routesFor(PUBLIC, registerWebhookRoute);

function registerWebhookRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/billing/stripe/webhook",
      operationId: "receiveStripeEvent",
      security: [],
      description:
        "Stripe's events, verified by their `Stripe-Signature` (STRIPE_WEBHOOK_SECRET). Handles checkout.session.completed, " +
        "customer.subscription.created/updated/deleted and invoice.payment_failed; other types answer 200 and change nothing, " +
        "as does a replayed event. 404 while STRIPE_WEBHOOK_SECRET is unset.",
      responses: {
        200: { description: "Received.", ...json(z.object({ received: z.literal(true), outcome: z.string() })) },
        ...errorResponses("validation_failed", "not_found", "payload_too_large", "unavailable"),
      },
    }),
    async (c) => {
      if (!c.env.STRIPE_WEBHOOK_SECRET?.trim()) throw new AppError("not_found", "No such route.");
      const bytes = c.req.raw.body ? await readWithin(c.req.raw.body, MAX_EVENT_BYTES) : new Uint8Array();
      if (!bytes) throw new AppError("payload_too_large", `The body is larger than ${MAX_EVENT_BYTES / 1024} KiB.`);
      const event = await verifiedEvent(c.env, new TextDecoder().decode(bytes), c.req.header("stripe-signature"));
      const outcome = await applyStripeEvent(c.var.db, c.env, event);
      return c.json({ received: true as const, outcome }, 200);
    },
  );
}
