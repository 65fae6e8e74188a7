import { base62Fixed, crc32, randomBase62 } from "../crypto";

export const API_KEY_PREFIX = "todo_live_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/**
 * `todo_live_` + 32 random base62 characters + a 6-character CRC32 checksum of the rest,
 * as GitHub tokens do: a truncated or mistyped key is refused without touching the database,
 * and secret scanners can recognise leaked keys offline.
 */
export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

export function hasValidApiKeyFormat(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

/** What the account page shows: enough to recognise a key, never enough to use it. */
export const apiKeyHint = (key: string) => `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
