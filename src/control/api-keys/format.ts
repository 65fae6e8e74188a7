import { base62Fixed, crc32, randomBase62 } from "../../domain/crypto";
import { credentialMac, isCredentialMac, MAC_LENGTH } from "../../domain/credential-mac";
import { accountHex, accountIdOfHex, ACCOUNT_HEX_LENGTH } from "../../domain/account-hex";

export const API_KEY_PREFIX = "todo_live_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]+$`);

/**
 * The three shapes of key this service has issued, told apart by length. Each ends in a 6-character CRC32
 * of the rest, as GitHub tokens do: a truncated or mistyped key is refused with no I/O, and secret scanners
 * recognise leaked keys offline. A CRC proves nothing, though: anyone can compute one.
 * - `signed` (today's): `todo_live_` + the account's id (32 hex digits, which carry its data location) +
 *   32 random base62 characters + their MAC (credential-mac.ts, 22 characters) + the CRC. The MAC proves
 *   this service made the key for that account, so the Worker calls the account's object only for a key
 *   it issued: a forged one is 401 with no I/O.
 * - `named` (issue 25 until issue 35): the account's id + 32 random characters + the CRC, no MAC. Such a
 *   key reaches its object only once D1's directory (key-directory.ts) has its hash for that account.
 * - `directory` (before issue 25): 32 random characters + the CRC, found by its hash in D1's directory.
 */
export type ParsedKey =
  | { format: "signed"; accountId: string; random: string; mac: string }
  | { format: "named"; accountId: string }
  | { format: "directory" };

const LENGTHS = {
  directory: API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH,
  named: API_KEY_PREFIX.length + ACCOUNT_HEX_LENGTH + RANDOM_LENGTH + CHECKSUM_LENGTH,
  signed: API_KEY_PREFIX.length + ACCOUNT_HEX_LENGTH + RANDOM_LENGTH + MAC_LENGTH + CHECKSUM_LENGTH,
};

const withChecksum = (body: string) => body + base62Fixed(crc32(body), CHECKSUM_LENGTH);

/** A new key of the account: signed with the server's secret (CREDENTIAL_SECRET). */
export async function generateApiKey(secret: string | undefined, accountId: string): Promise<string> {
  const hex = accountHex(accountId);
  const random = randomBase62(RANDOM_LENGTH);
  return withChecksum(API_KEY_PREFIX + hex + random + (await credentialMac(secret, "key", hex, random)));
}

/** The key's shape, account and parts, if its format and checksum hold: no I/O, no secret. */
export function parseApiKey(key: string): ParsedKey | undefined {
  if (!SHAPE.test(key)) return undefined;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (withChecksum(body) !== key) return undefined;
  const rest = body.slice(API_KEY_PREFIX.length);
  if (key.length === LENGTHS.directory) return { format: "directory" };
  const accountId = accountIdOfHex(rest.slice(0, ACCOUNT_HEX_LENGTH));
  if (!accountId) return undefined;
  if (key.length === LENGTHS.named) return { format: "named", accountId };
  if (key.length !== LENGTHS.signed) return undefined;
  const random = rest.slice(ACCOUNT_HEX_LENGTH, ACCOUNT_HEX_LENGTH + RANDOM_LENGTH);
  return { format: "signed", accountId, random, mac: rest.slice(ACCOUNT_HEX_LENGTH + RANDOM_LENGTH) };
}

/** Whether a signed key's MAC is this server's: arithmetic only. */
export const isGenuineSignedKey = (secret: string | undefined, key: Extract<ParsedKey, { format: "signed" }>) =>
  isCredentialMac(secret, key.mac, "key", accountHex(key.accountId), key.random);

/** What the account page shows: enough to recognise a key, never enough to use it. */
export const apiKeyHint = (key: string) => `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
