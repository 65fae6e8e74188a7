import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { errorCodes } from "../../src/domain/errors";
import worker from "../../src/index";
import { BASE, type CallOptions } from "../helpers";

/**
 * The real Worker (src/index.ts) called with a patched env: rate limits on (the suite's
 * default is off, see vitest.config.ts) or a D1 that fails on demand.
 */
export async function callWith(patch: Partial<Env>, path: string, options: CallOptions & { ip?: string } = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.ip) headers.set("CF-Connecting-IP", options.ip);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  const request = new Request(`${BASE}${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...patch } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export const limited = (path: string, options: CallOptions & { ip?: string } = {}) => callWith({ RATE_LIMITS: "on" }, path, options);

/** A client IP no other test uses (random in 2001:db8::/32), so tests never share a rate-limit bucket. */
export const uniqueIp = () => `2001:db8:${[...crypto.getRandomValues(new Uint16Array(6))].map((n) => n.toString(16)).join(":")}`;

/**
 * Windows are aligned to the clock. A test that must stay inside one window waits for a
 * fresh one when fewer than `needed` seconds are left in the current one.
 */
export async function atWindowStart(needed: number, window = 60) {
  const left = window - ((Date.now() / 1000) % window);
  if (left < needed) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}

export const PROBLEM_CODES: ReadonlySet<string> = new Set(errorCodes);
