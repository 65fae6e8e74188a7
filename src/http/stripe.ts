import type Stripe from "stripe";
import { type StripeEvent, StripeEventShape } from "../control/billing/events";
import { AppError } from "../domain/errors";
import { loadStripe } from "../lazy/load";

/*
 * The `stripe` SDK, behind one small module. It is loaded here only, as a module of its own (src/lazy/load.ts),
 * so that the first billing request of an isolate loads and evaluates it: REST, MCP and the page's other routes
 * start without it, and the main module's size budget does not count it.
 */

type StripeEnv = Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_PRICE_ID" | "STRIPE_API_BASE">;

const notFound = () => new AppError("not_found", "No such route.");

/** Checkout and the portal need the secret key and the price; without them billing is off (404), as documented. */
export function billingConfig(env: StripeEnv): { secretKey: string; priceId: string } {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const priceId = env.STRIPE_PRICE_ID?.trim();
  if (!secretKey || !priceId) throw notFound();
  return { secretKey, priceId };
}

export const billingEnabled = (env: StripeEnv) => !!env.STRIPE_SECRET_KEY?.trim() && !!env.STRIPE_PRICE_ID?.trim();

/** STRIPE_API_BASE (tests' local stand-in of Stripe's API) as the SDK's host, port and protocol. */
function apiBase(value: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!value?.trim()) return {};
  const url = new URL(value.trim());
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/** A client per request: the Worker's fetch as its HTTP client, one retry (the SDK sends idempotency keys). */
export async function stripeClient(env: StripeEnv): Promise<Stripe> {
  const StripeSdk = await loadStripe();
  return new StripeSdk(billingConfig(env).secretKey, {
    httpClient: StripeSdk.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...apiBase(env.STRIPE_API_BASE),
  });
}

/** The SDK's default tolerance, in seconds: a signature or an event further from now than this is refused. */
const TOLERANCE_S = 300;

/**
 * The event, if `Stripe-Signature` signs exactly these bytes with STRIPE_WEBHOOK_SECRET within the
 * SDK's default tolerance (5 minutes, in the past and, which the SDK does not check, in the future),
 * and the event has Stripe's envelope (StripeEventShape); otherwise 400, logged, and nothing is read from it.
 */
export async function verifiedEvent(
  env: StripeEnv,
  payload: string,
  signature: string | undefined,
): Promise<StripeEvent> {
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secret) throw notFound();
  if (!signature) throw badSignature("The Stripe-Signature header is missing.");
  const StripeSdk = await loadStripe();
  let event: unknown;
  try {
    event = await StripeSdk.webhooks.constructEventAsync(
      payload,
      signature,
      secret,
      TOLERANCE_S,
      StripeSdk.createSubtleCryptoProvider(),
    );
  } catch (e) {
    // The SDK parses the body only after the signature held: a SyntaxError is a signed body that is not JSON.
    if (e instanceof SyntaxError) throw malformed("The event is not JSON.", "body");
    throw badSignature("The Stripe-Signature header does not sign this body with the webhook secret.");
  }
  const now = Date.now() / 1000;
  // The signature held, so its `t` is Stripe's; the SDK refuses only an old one.
  const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
  if (signedAt > now + TOLERANCE_S) throw badSignature("The Stripe-Signature timestamp is in the future.");
  const parsed = StripeEventShape.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join(".") || "body";
    throw malformed(`The event is not a Stripe event: ${path} ${issue.message.toLowerCase()}.`, path, event);
  }
  if (parsed.data.created > now + TOLERANCE_S)
    throw malformed("The event was created in the future.", "created", event);
  return parsed.data;
}

/** A signed event that cannot be applied: 400, and a log line, since only a bug or a forged secret makes one. */
function malformed(detail: string, path: string, event?: unknown): AppError {
  const id = (event as { id?: unknown } | undefined)?.id;
  console.warn("stripe event refused", typeof id === "string" ? id : "(no id)", detail);
  return new AppError("validation_failed", detail, [{ path, message: detail }]);
}

const badSignature = (detail: string) =>
  new AppError("validation_failed", detail, [{ path: "Stripe-Signature", message: detail }]);

/** Stripe's own failures: unreachable or 5xx is a brief outage (503); anything else is our set-up (500, logged). */
export function fromStripeError(e: unknown): AppError {
  const error = e as { type?: string; statusCode?: number; message?: string };
  if (error?.type === "StripeConnectionError" || (error?.statusCode ?? 0) >= 500 || error?.statusCode === 429)
    return new AppError(
      "unavailable",
      "The payment provider could not be reached. Try again in a minute.",
      undefined,
      30,
    );
  console.error("stripe request failed", error?.type ?? "unknown", error?.statusCode ?? "", error?.message ?? "");
  return new AppError("internal", "Billing is not available right now. Try again later.");
}
