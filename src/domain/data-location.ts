import { newId } from "./ids";

/**
 * Where an account's data lives (issue 36): "global" (Cloudflare places its object near its first
 * request) or "eu" (its object is created in the EU jurisdiction and never leaves it). Chosen at
 * sign-up only: an object cannot move between jurisdictions, so the choice is fixed for the account's life.
 */
export const DATA_LOCATIONS = ["global", "eu"] as const;
export type DataLocation = (typeof DATA_LOCATIONS)[number];

/**
 * The account's id carries its location, so every credential that names the account (an API key, a feed
 * token, a session's row, an OAuth grant) reaches the right object with no lookup. An EU account's id is
 * a UUIDv7 whose version nibble is 8 (RFC 9562's vendor-specific version): no account id was ever made
 * with it, so every id issued before is "global", as every account then was.
 */
const EU_VERSION = "8";
const VERSION_AT = 14; // "xxxxxxxx-xxxx-Vxxx-…"
const EU_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function newAccountId(location: DataLocation): string {
  const id = newId();
  return location === "eu" ? id.slice(0, VERSION_AT) + EU_VERSION + id.slice(VERSION_AT + 1) : id;
}

/** Where the account whose id this is keeps its data; any name that is not such an id (the bench's) is "global". */
export const dataLocationOf = (accountId: string): DataLocation => (EU_ID.test(accountId) ? "eu" : "global");
