import { timingSafeEqual } from "./crypto";
import { AppError } from "./errors";

/**
 * The keyed MAC that API keys and feed tokens carry (issue 35): HMAC-SHA-256 with the server's
 * CREDENTIAL_SECRET over what the credential names (its kind, its account's id, which carries the data
 * location, and its random part), cut to 128 bits and written in 22 base62 characters. Only this
 * service can make one, so a made-up credential is refused by arithmetic alone, before any object call,
 * D1 query or KV read, and a made-up account id never reaches an object. 128 bits stay far beyond
 * guessing at any rate the limiters allow (NIST SP 800-107 allows truncation to 64).
 */

export const MAC_LENGTH = 22;
const MAC_BYTES = 16;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** What a MAC is over: a label per kind, so a feed token's MAC never passes as a key's (nor an unsubscribe link's). */
export type MacKind = "key" | "feed" | "unsubscribe";

let cached: { secret: string; key: Promise<CryptoKey> } | undefined;

function hmacKey(secret: string | undefined): Promise<CryptoKey> {
  // A missing secret is a deployment fault: nothing can be issued or verified (503, not 401).
  if (!secret) throw new AppError("unavailable", "Credentials are not configured on this server (CREDENTIAL_SECRET).");
  if (cached?.secret !== secret) {
    const raw = new TextEncoder().encode(secret);
    cached = { secret, key: crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]) };
  }
  return cached.key;
}

function base62Of(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  for (let i = 0; i < MAC_LENGTH; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** The MAC of a credential's parts, for the server's secret. */
export async function credentialMac(secret: string | undefined, kind: MacKind, ...parts: string[]): Promise<string> {
  const message = new TextEncoder().encode([kind, ...parts].join("\n"));
  const digest = await crypto.subtle.sign("HMAC", await hmacKey(secret), message);
  return base62Of(new Uint8Array(digest).subarray(0, MAC_BYTES));
}

/** Whether `mac` is the MAC of these parts, compared in constant time. */
export async function isCredentialMac(
  secret: string | undefined,
  mac: string,
  kind: MacKind,
  ...parts: string[]
): Promise<boolean> {
  const expected = await credentialMac(secret, kind, ...parts);
  const encoder = new TextEncoder();
  return timingSafeEqual(encoder.encode(expected), encoder.encode(mac));
}
