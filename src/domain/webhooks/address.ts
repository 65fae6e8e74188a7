import { publicUrlRefusal } from "../net/public-address";

/**
 * Where a webhook may point. The public-address rule (net/public-address.ts), except that
 * `WEBHOOKS_ALLOW_LOOPBACK=on` (local development and tests only) also lets
 * `http://127.0.0.1:<port>` and `http://localhost:<port>` through.
 *
 * A refusal is a whole sentence, as publicUrlRefusal's are, so every surface shows it as it is.
 */
export function webhookUrlRefusal(value: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "This is not a valid URL: it must be an absolute URL, e.g. https://example.com/hooks/todo.";
  }
  // A secret in the URL would be sent with every event and shown on the account page: refused in every mode.
  if (url.username || url.password) return "The URL must not contain a user name or password.";
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
  if (allowLoopback && loopback && url.port !== "" && /^https?:$/.test(url.protocol)) return null;
  return publicUrlRefusal(url);
}

/** What the Worker's side reads from its configuration: `WEBHOOKS_ALLOW_LOOPBACK`. */
export const allowsLoopback = (env: { WEBHOOKS_ALLOW_LOOPBACK?: string }) => env.WEBHOOKS_ALLOW_LOOPBACK === "on";
