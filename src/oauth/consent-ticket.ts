import type { DeviceSigner } from "../control/accounts/device";
import { fromHex, sha256Hex, timingSafeEqual, toHex } from "../domain/crypto";

/**
 * Who signed in on the authorize page, carried from the sign-in step to the consent step: no session is
 * created for it. `<account id>.<expires, epoch seconds>.<HMAC-SHA-256>`, keyed by the account's password
 * hash (as device tokens are, control/accounts/device.ts), over the consent handle it was issued with.
 * The handle is the provider's: single use, ten minutes, bound to the browser that opened it by a
 * `__Host-` cookie. So a ticket is worth nothing without that browser and that handle, dies with the
 * handle and with a new password, and no secret of our own is stored anywhere.
 */
export const TICKET_SECONDS = 600;

const TICKET = /^([0-9a-f-]{36})\.(\d{1,12})\.([0-9a-f]{64})$/;

async function mac(account: DeviceSigner, expires: string, handle: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(account.passwordHash),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const payload = `oauth-consent:v1:${account.id}:${expires}:${await sha256Hex(handle)}`;
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload)));
}

export async function issueConsentTicket(account: DeviceSigner, handle: string, now = Date.now()): Promise<string> {
  const expires = String(Math.floor(now / 1000) + TICKET_SECONDS);
  return `${account.id}.${expires}.${toHex(await mac(account, expires, handle))}`;
}

/** The account id a well-formed, unexpired ticket names (to look its signer up), or undefined. */
export function ticketAccountId(ticket: string, now = Date.now()): string | undefined {
  const match = TICKET.exec(ticket);
  return match && Number(match[2]) * 1000 > now ? match[1] : undefined;
}

/** Whether `account` issued this ticket for this handle. */
export async function isConsentTicketOf(account: DeviceSigner, ticket: string, handle: string): Promise<boolean> {
  const match = TICKET.exec(ticket);
  if (!match || match[1] !== account.id) return false;
  return timingSafeEqual(await mac(account, match[2]!, handle), fromHex(match[3]!));
}
