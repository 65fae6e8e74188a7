import { createHash, createHmac } from "node:crypto";
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { vi } from "vitest";
import { callWith } from "../hardening/support";
import { call } from "../helpers";

/** The webhook secret vitest.config.ts binds; events signed with anything else must be refused. */
export const WEBHOOK_SECRET = (env as unknown as { STRIPE_WEBHOOK_SECRET: string }).STRIPE_WEBHOOK_SECRET;
const stripe = new Stripe("sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });

/**
 * The SDK's own test signer. In workerd its default (SubtleCrypto) cannot sign synchronously, so it is
 * given an HMAC from node:crypto: the Worker then verifies with SubtleCrypto, an independent implementation.
 */
const nodeHmac = {
  computeHMACSignature: (payload: string, secret: string) =>
    createHmac("sha256", secret).update(payload, "utf8").digest("hex"),
  computeHMACSignatureAsync: async (payload: string, secret: string) =>
    createHmac("sha256", secret).update(payload, "utf8").digest("hex"),
  computeSHA256Async: async (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest()),
} as unknown as Parameters<typeof stripe.webhooks.generateTestHeaderString>[0]["cryptoProvider"];

export const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
  stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    cryptoProvider: nodeHmac,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });

let counter = 0;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface EventInit {
  id?: string;
  /** Unix seconds; now by default. */
  created?: number;
}

/** A Stripe event as its webhook delivers it (API version 2026-10-28: the period's end is on the items). */
export function event(type: string, object: Record<string, unknown>, init: EventInit = {}) {
  return {
    id: init.id ?? `evt_test_${Date.now()}_${++counter}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: init.created ?? nowSeconds(),
    type,
    livemode: false,
    pending_webhooks: 1,
    data: { object },
  };
}

export interface SubscriptionInit {
  id?: string;
  accountId?: string;
  customer?: string;
  status?: string;
  /** Unix seconds; 30 days ahead by default. */
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
}

export function subscription(init: SubscriptionInit = {}) {
  const periodEnd = init.periodEnd ?? nowSeconds() + 30 * 86_400;
  return {
    id: init.id ?? `sub_test_${++counter}_${Math.random().toString(36).slice(2, 8)}`,
    object: "subscription",
    customer: init.customer ?? `cus_test_${++counter}`,
    status: init.status ?? "active",
    cancel_at_period_end: init.cancelAtPeriodEnd ?? false,
    cancel_at: init.cancelAtPeriodEnd ? periodEnd : null,
    metadata: init.accountId ? { accountId: init.accountId } : {},
    items: { object: "list", data: [{ id: "si_test", object: "subscription_item", current_period_end: periodEnd }] },
  };
}

/** POSTs the event to the webhook, signed unless `signature` says otherwise (null: no header). */
export function deliver(evt: object, signature?: string | null, patch?: Partial<Env>) {
  const payload = JSON.stringify(evt, null, 2);
  const header = signature === undefined ? sign(payload) : signature;
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (header !== null) headers["Stripe-Signature"] = header;
  const options = { method: "POST", body: payload, headers };
  return patch ? callWith(patch, "/billing/stripe/webhook", options) : call("/billing/stripe/webhook", options);
}

/** What the Worker sent to the stand-in: method, path, and the form-encoded parameters flattened. */
export interface StandInRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | null;
}

export const STAND_IN = "https://stripe-stand-in.test";
/** A Stripe that cannot be reached: the stand-in fails the connection, as fetch does. */
export const UNREACHABLE = "https://stripe-unreachable.test";

/**
 * A local stand-in of Stripe's API at the HTTP boundary: the SDK really encodes and sends its request
 * with fetch (STRIPE_API_BASE points it here), and this answers as Stripe would for the two calls used.
 * It replaces the test isolate's global fetch for that host only, for the duration of one test.
 */
export function stripeStandIn() {
  const requests: StandInRequest[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin === UNREACHABLE) throw new TypeError("Network connection lost.");
    if (url.origin !== STAND_IN) return realFetch(input, init);
    const form = new TextDecoder().decode(await request.arrayBuffer());
    const params = Object.fromEntries(new URLSearchParams(form));
    requests.push({
      method: request.method,
      path: url.pathname,
      params,
      authorization: request.headers.get("authorization"),
    });
    const reply = (body: object) => Response.json(body, { headers: { "Request-Id": "req_stand_in" } });
    if (url.pathname === "/v1/checkout/sessions")
      return reply({
        id: "cs_test_1",
        object: "checkout.session",
        url: "https://checkout.stripe.test/c/pay/cs_test_1",
      });
    if (url.pathname === "/v1/billing_portal/sessions")
      return reply({
        id: "bps_test_1",
        object: "billing_portal.session",
        url: "https://billing.stripe.test/p/session/bps_1",
      });
    return Response.json({ error: { type: "invalid_request_error", message: "Unknown path" } }, { status: 404 });
  });
  return { requests, restore: () => spy.mockRestore() };
}

/** Billing switched on, against the stand-in. */
export const BILLING_ON: Partial<Env> = {
  STRIPE_SECRET_KEY: "sk_test_stand_in",
  STRIPE_PRICE_ID: "price_test_max",
  STRIPE_API_BASE: STAND_IN,
};
