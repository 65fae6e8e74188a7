import type { Context, MiddlewareHandler } from "hono";
import { AppError, isAppError } from "../domain/errors";
import type { AppEnv } from "./env";
import { Problem } from "./problem";

/**
 * Rate limits on the Workers Rate Limiting binding (`[[ratelimits]]` in wrangler.toml).
 * The quotas here must equal the bindings' `simple` settings; the binding enforces them,
 * these numbers only describe them in headers, errors and docs.
 */
export interface RatePolicy {
  /** Name in the `RateLimit-Policy` and `RateLimit` headers. */
  name: string;
  binding: "KEY_LIMITER" | "IP_LIMITER" | "LOGIN_LIMITER" | "ACCOUNT_LIMITER" | "FEED_LIMITER" | "FEED_IP_LIMITER";
  quota: number;
  /** Window in seconds. */
  window: number;
}

export const RATE_POLICIES = {
  /** Per API key on the API-key routes (access.ts: API_KEY) and /mcp. */
  perKey: { name: "per-key", binding: "KEY_LIMITER", quota: 120, window: 60 },
  /** Per client IP on /auth/login, /auth/signup, and (separately counted) failed API-key attempts. */
  perIp: { name: "per-ip", binding: "IP_LIMITER", quota: 10, window: 60 },
  /** Per email on /auth/login, for known and unknown emails alike. */
  perEmail: { name: "per-email", binding: "LOGIN_LIMITER", quota: 5, window: 60 },
  /** Per device cookie on /auth/login, once strangers have used up the email's budget (see login-throttle.ts). */
  perDevice: { name: "per-device", binding: "LOGIN_LIMITER", quota: 5, window: 60 },
  /** Per account on the session routes (/account, /account/*), whichever of its sessions asks. */
  perAccount: { name: "per-account", binding: "ACCOUNT_LIMITER", quota: 180, window: 60 },
  /** Per feed token on /feeds/*: a calendar app polls a feed every few minutes at most. */
  perFeed: { name: "per-feed", binding: "FEED_LIMITER", quota: 20, window: 60 },
  /** Per client IP on /feeds/*, all feeds together (a calendar service polls many users' feeds from one address). */
  perFeedIp: { name: "per-feed-ip", binding: "FEED_IP_LIMITER", quota: 300, window: 60 },
} as const satisfies Record<string, RatePolicy>;

/** `RATE_LIMITS = "off"` is for benchmarks and local load tests; production keeps the default "on". */
export const rateLimitsOn = (env: Env) => env.RATE_LIMITS !== "off";

/**
 * The client's address for the per-IP limits: CF-Connecting-IP and nothing else. Cloudflare's edge
 * sets it on every request it proxies (workers.dev, custom domains, routes), whatever the client
 * sent, so it is trusted there. Headers a client controls (X-Forwarded-For, True-Client-IP off
 * Enterprise, Forwarded) are never read. `wrangler dev` keeps a client-sent value (Miniflare fills
 * it in only when absent): see docs/security.md. "unknown", one shared bucket, only off Cloudflare.
 */
export const clientIp = (request: Request) => request.headers.get("cf-connecting-ip")?.trim() || "unknown";

/** Seconds until the current window ends, with windows aligned to the clock (as the binding counts). */
const secondsLeft = (window: number, now = Date.now()) => Math.max(1, Math.ceil(window - ((now / 1000) % window)));

/**
 * The binding answers only allowed or not, never a count. `RateLimit: r=` is therefore this
 * isolate's own count of the window's requests subtracted from the quota: exact with one
 * isolate (wrangler dev, tests), an upper bound when a key's requests spread over several
 * isolates or locations. docs/security.md explains the choice.
 */
const seen = new Map<string, { epoch: number; count: number }>();
const MAX_TRACKED = 10_000;

function remainingEstimate(policy: RatePolicy, key: string, now = Date.now()): number {
  const epoch = Math.floor(now / 1000 / policy.window);
  const id = `${policy.name}:${key}`;
  const entry = seen.get(id);
  const count = entry && entry.epoch === epoch ? entry.count + 1 : 1;
  if (seen.size >= MAX_TRACKED && !entry) seen.clear();
  seen.set(id, { epoch, count });
  return Math.max(0, policy.quota - count);
}

export type RateHeaders = Record<string, string>;

/**
 * Counts one request against `policy` for `key`. Throws 429 `rate_limited` with Retry-After
 * when the window's quota is used up; otherwise returns the IETF RateLimit headers to send.
 */
export async function consume(env: Env, policy: RatePolicy, key: string, what: string): Promise<RateHeaders> {
  if (!rateLimitsOn(env)) return {};
  let success = true;
  try {
    ({ success } = await env[policy.binding].limit({ key }));
  } catch (e) {
    // A limiter outage must not take the API down with it: fail open, and say so in the log.
    console.error("rate limiter unavailable", policy.name, e instanceof Error ? e.message : String(e));
  }
  const reset = secondsLeft(policy.window);
  if (!success) {
    throw new AppError(
      "rate_limited",
      `Too many requests: at most ${policy.quota} ${what} per ${policy.window} seconds. Retry after ${reset} seconds.`,
      undefined,
      reset,
    );
  }
  return {
    "RateLimit-Policy": `"${policy.name}";q=${policy.quota};w=${policy.window}`,
    RateLimit: `"${policy.name}";r=${remainingEstimate(policy, key)};t=${reset}`,
  };
}

/** Per API key, by the key's SHA-256 (never the secret): counted before any D1 work. */
export const limitApiKey = (env: Env, keyHash: string) =>
  consume(env, RATE_POLICIES.perKey, keyHash, "requests per API key");

/**
 * A failed API-key attempt counts against the caller's IP. Past the quota the answer is 429
 * instead of 401, so guessing keys costs time. Rethrows `e` otherwise.
 */
export async function failedKeyAttempt(env: Env, request: Request, e: unknown): Promise<never> {
  if (isAppError(e) && e.code === "unauthorized") {
    await consume(env, RATE_POLICIES.perIp, `key:${clientIp(request)}`, "failed API-key attempts per client IP");
  }
  throw e;
}

/**
 * A feed request that found no feed counts against the caller's IP, with the failed key attempts' quota:
 * past it the answer is 429 instead of 404. A real feed is never refused by this count. Rethrows `e` otherwise.
 */
export async function failedFeedAttempt(env: Env, request: Request, e: unknown): Promise<never> {
  if (isAppError(e) && e.code === "not_found") {
    await consume(env, RATE_POLICIES.perIp, `feed:${clientIp(request)}`, "unknown feed addresses per client IP");
  }
  throw e;
}

/** Middleware counting each request against `policy` by `keyOf(c)`; the RateLimit headers go on its answer. */
const limitBy =
  (policy: RatePolicy, keyOf: (c: Context<AppEnv>) => string, what: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const headers = await consume(c.env, policy, keyOf(c), what);
    await next();
    setHeaders(c.res.headers, headers);
  };

/** Per client IP on the sign-up and sign-in routes, counted before the body is read. */
export const limitAuthByIp = limitBy(
  RATE_POLICIES.perIp,
  // A passkey sign-in offer checks no credential, and the page asks for one on every signed-out load (the email
  // field's autofill): it is counted in a bucket of its own, so page loads never use up the sign-in attempts.
  (c) => `${c.req.path === "/auth/passkey/options" ? "auth-offer" : "auth"}:${clientIp(c.req.raw)}`,
  "sign-up and sign-in requests per client IP",
);

/**
 * Per account on the session routes, after the session is known (401 first) and before the body
 * (then 400). Per account rather than per session: signing in again buys no fresh budget.
 */
export const limitAccount = limitBy(
  RATE_POLICIES.perAccount,
  (c) => `account:${c.var.caller.accountId}`,
  "requests per account on the account routes",
);

/** Adds the RateLimit headers to a response whose headers may be immutable (e.g. from a fetch). */
export function withRateHeaders(response: Response, headers: RateHeaders): Response {
  if (Object.keys(headers).length === 0) return response;
  try {
    setHeaders(response.headers, headers);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    setHeaders(copy.headers, headers);
    return copy;
  }
}

function setHeaders(target: Headers, headers: RateHeaders) {
  // Several policies on one request (per IP and per email on sign-in) are listed side by side;
  // any other header passed along is single-valued and replaced.
  for (const [name, value] of Object.entries(headers)) {
    if (/^ratelimit(-policy)?$/i.test(name)) target.append(name, value);
    else target.set(name, value);
  }
}

const header = (description: string, example: string) => ({
  description,
  schema: { type: "string" as const, example },
});

const { perKey, perIp } = RATE_POLICIES;

const keyRateHeaders = {
  "RateLimit-Policy": header(
    `The quota: ${perKey.quota} requests per ${perKey.window} s per API key.`,
    `"per-key";q=${perKey.quota};w=${perKey.window}`,
  ),
  RateLimit: header(
    "Remaining requests (`r`, approximate) and seconds until the window resets (`t`).",
    `"per-key";r=119;t=42`,
  ),
};

const keyTooMany = {
  description: `\`rate_limited\`: more than ${perKey.quota} requests per API key per ${perKey.window} s, or more than ${perIp.quota} failed API-key attempts per client IP per ${perIp.window} s. Wait \`Retry-After\` seconds.`,
  headers: { "Retry-After": header("Seconds to wait before retrying.", "17") },
  content: { "application/problem+json": { schema: Problem } },
};

/** The per-key limit in the OpenAPI document: the RateLimit headers on each success, and 429. */
export function documentKeyRateLimit(route: { responses: object }) {
  const responses = route.responses as Record<string, { headers?: object }>;
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith("2"))
      responses[status] = { ...response, headers: { ...response.headers, ...keyRateHeaders } };
  }
  responses["429"] = keyTooMany;
}
