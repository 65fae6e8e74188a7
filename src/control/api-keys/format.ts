import { base62Fixed, crc32, randomBase62 } from "../../domain/crypto";

export const API_KEY_PREFIX = "todo_live_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** The account id (a UUID) as its 32 hex digits, in keys issued since the account objects (issue 25). */
const ACCOUNT_LENGTH = 32;
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}(?:[0-9a-f]{${ACCOUNT_LENGTH}})?[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`,
);

/**
 * `todo_live_` + the account's id (32 hex digits) + 32 random base62 characters + a 6-character
 * CRC32 checksum of the rest, as GitHub tokens do: a truncated or mistyped key is refused without
 * any I/O, and secret scanners can recognise leaked keys offline. The account id tells the Worker
 * which account object judges the key, without a lookup; the checksum covers it, and the object
 * still checks the key's hash, so a key altered to name another account is refused there.
 * Keys issued before the account id was added (48 characters) are found through D1 (key-directory.ts).
 */
export function generateApiKey(accountId: string): string {
  const body = API_KEY_PREFIX + accountId.replaceAll("-", "") + randomBase62(RANDOM_LENGTH);
  return body + base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

export function hasValidApiKeyFormat(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

/** The account a well-formed key names, or undefined for a key issued before keys carried it. */
export function accountIdOfKey(key: string): string | undefined {
  if (key.length !== API_KEY_PREFIX.length + ACCOUNT_LENGTH + RANDOM_LENGTH + CHECKSUM_LENGTH) return undefined;
  const hex = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + ACCOUNT_LENGTH);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What the account page shows: enough to recognise a key, never enough to use it. */
export const apiKeyHint = (key: string) => `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
