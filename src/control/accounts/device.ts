import { fromHex, randomBase62, timingSafeEqual, toHex } from "../../domain/crypto";

/**
 * Device tokens (OWASP "device cookies"): a client that signed in to an account once can prove it
 * on its next sign-in, so strangers who use up the account's sign-in budget do not lock it out.
 *
 * `v1.<expires, epoch seconds>.<nonce>.<HMAC-SHA-256>`, keyed by the account's password hash: no
 * state is stored, a token is bound to its account, and a new password would void every token.
 * A token opens nothing but a rate-limit budget of its own; it is never a credential.
 */
export const DEVICE_TOKEN_DAYS = 180;

export interface DeviceSigner {
  id: string;
  passwordHash: string;
}

const TOKEN = /^v1\.(\d{1,12})\.([0-9A-Za-z]{22})\.([0-9a-f]{64})$/;

async function mac(account: DeviceSigner, payload: string): Promise<Uint8Array> {
  const secret = new TextEncoder().encode(account.passwordHash);
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`device:${account.id}:${payload}`)),
  );
}

export async function issueDeviceToken(account: DeviceSigner, now = Date.now()): Promise<string> {
  const payload = `${Math.floor(now / 1000) + DEVICE_TOKEN_DAYS * 86_400}.${randomBase62(22)}`;
  return `v1.${payload}.${toHex(await mac(account, payload))}`;
}

/** Well-formed and not expired: worth a look at the account (no database needed to say no). */
export function isLiveDeviceToken(token: string, now = Date.now()): boolean {
  const expires = TOKEN.exec(token)?.[1];
  return expires !== undefined && Number(expires) * 1000 > now;
}

/** The token's nonce when `account` issued it; undefined for another account's or a forged token. */
export async function deviceNonce(account: DeviceSigner, token: string): Promise<string | undefined> {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, expires, nonce, signature] = match as unknown as [string, string, string, string];
  return timingSafeEqual(await mac(account, `${expires}.${nonce}`), fromHex(signature)) ? nonce : undefined;
}
