/**
 * The one place absolute URLs get their origin: `PUBLIC_ORIGIN` where it is set (production,
 * wrangler.toml), else the request's own origin (local development, where it is empty).
 *
 * Behind Cloudflare the request's host is the one Cloudflare routed, but `wrangler dev` takes
 * Host from the client, so a configured origin keeps a client from choosing the host of the
 * Location headers, links, problem types and MCP links this service hands out.
 */
export function publicOrigin(env: Partial<Pick<Env, "PUBLIC_ORIGIN">> | undefined, requestUrl: string): string {
  // `env` is undefined only when the app is called without bindings (app.request() in a script).
  return configuredOrigin(env?.PUBLIC_ORIGIN) ?? new URL(requestUrl).origin;
}

/** `path` (starting with "/") as an absolute URL on the public origin. */
export const absoluteUrl = (env: Partial<Pick<Env, "PUBLIC_ORIGIN">> | undefined, requestUrl: string, path: string) =>
  `${publicOrigin(env, requestUrl)}${path}`;

// Parsed once per value; a value that is not an http(s) origin is reported once and ignored.
const parsed = new Map<string, string | null>();

function configuredOrigin(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let origin = parsed.get(text);
  if (origin === undefined) {
    origin = URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) ? new URL(text).origin : null;
    if (origin === null) console.error("PUBLIC_ORIGIN is not an http(s) origin; using each request's origin", text);
    parsed.set(text, origin);
  }
  return origin ?? undefined;
}
