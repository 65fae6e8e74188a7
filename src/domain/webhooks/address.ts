import { publicUrlRefusal } from "../net/public-address";

/**
 * Where a webhook may point. The public-address rule (net/public-address.ts), except that
 * `WEBHOOKS_ALLOW_LOOPBACK=on` (local development and tests only) also lets
 * `http://127.0.0.1:<port>` and `http://localhost:<port>` through.
 */
export function webhookUrlRefusal(value: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL, e.g. https://example.com/hooks/todo";
  }
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
  if (allowLoopback && loopback && url.port !== "" && /^https?:$/.test(url.protocol)) return null;
  // A secret in the URL would be sent with every event and shown on the account page.
  if (url.username || url.password) return "must not contain a user name or password";
  return publicUrlRefusal(url);
}

/** What the Worker's side reads from its configuration: `WEBHOOKS_ALLOW_LOOPBACK`. */
export const allowsLoopback = (env: { WEBHOOKS_ALLOW_LOOPBACK?: string }) => env.WEBHOOKS_ALLOW_LOOPBACK === "on";
