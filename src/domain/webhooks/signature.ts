/**
 * Standard Webhooks signing (standard-webhooks `spec/standard-webhooks.md`): HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the base64 part of the `whsec_` secret,
 * sent as `webhook-signature: v1,<base64>`. The body signed is the exact string sent.
 */

const SECRET_PREFIX = "whsec_";
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret.slice(SECRET_PREFIX.length)), (c) => c.charCodeAt(0));
    key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    // A handful of webhooks per account object: the map stays small.
    if (keys.size > 100) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/**
 * The three headers of one attempt; `timestamp` in seconds since the epoch (the time of the attempt).
 * With several secrets (a rotation's overlap), one `v1,` signature each, separated by spaces: a receiver
 * accepts the request if any of them verifies with its secret (Standard Webhooks).
 */
export async function signedHeaders(
  secrets: string | readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    (typeof secrets === "string" ? [secrets] : secrets).map(
      async (secret) => `v1,${base64(await crypto.subtle.sign("HMAC", await keyOf(secret), signed))}`,
    ),
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
