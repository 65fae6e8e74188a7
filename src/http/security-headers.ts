import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../transport/env";

/**
 * Baseline headers for everything the Worker answers. HTML pages (the API reference) get a
 * strict default set; a route that sets its own value (docs.ts sets a nonce CSP) keeps it.
 * Static assets get the same set from static/_headers.
 */
const everywhere: Record<string, string> = { "X-Content-Type-Options": "nosniff" };

const html: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const isHtml = /^text\/html\b/i.test(c.res.headers.get("content-type") ?? "");
  const wanted = isHtml ? { ...everywhere, ...html } : everywhere;
  const missing = Object.entries(wanted).filter(([name]) => !c.res.headers.has(name));
  if (missing.length === 0) return;
  try {
    for (const [name, value] of missing) c.res.headers.set(name, value);
  } catch {
    // Immutable headers (a response passed through from a fetch): copy it once.
    const copy = new Response(c.res.body, c.res);
    for (const [name, value] of missing) copy.headers.set(name, value);
    c.res = copy;
  }
};

/** Session tokens, API keys and the account's own data: never kept by a browser or a shared cache. */
export const noStore: MiddlewareHandler = async (c, next) => {
  c.header("Cache-Control", "no-store");
  await next();
};
