import { API_KEY_PREFIX } from "../../src/control/api-keys/format";
import { accountHex } from "../../src/domain/account-hex";
import { base62Fixed, crc32, randomBase62 } from "../../src/domain/crypto";
import { MAC_LENGTH } from "../../src/domain/credential-mac";

/**
 * Credentials an outsider can make: every shape and checksum right, the MAC guessed. The service refuses
 * them with no I/O (test/hardening/forged-credentials.test.ts).
 */
const withChecksum = (body: string) => body + base62Fixed(crc32(body), 6);

/** A key in today's (signed) format, for this account, with a made-up MAC and a valid CRC32. */
export const forgedKey = (accountId = crypto.randomUUID()) =>
  withChecksum(API_KEY_PREFIX + accountHex(accountId) + randomBase62(32) + randomBase62(MAC_LENGTH));

/** A key in the format before keys were signed (account id + random + CRC32): anyone can compute one. */
export const forgedNamedKey = (accountId = crypto.randomUUID()) =>
  withChecksum(API_KEY_PREFIX + accountHex(accountId) + randomBase62(32));

/** A key in the first format (random + CRC32). */
export const forgedDirectoryKey = () => withChecksum(API_KEY_PREFIX + randomBase62(32));

/** A feed token in today's (signed) format with a made-up MAC. */
export const forgedFeedToken = (accountId = crypto.randomUUID()) =>
  accountHex(accountId) + randomBase62(32) + randomBase62(MAC_LENGTH);

/** A feed token in the format before feed tokens were signed (account id + random). */
export const forgedUnsignedFeedToken = (accountId = crypto.randomUUID()) => accountHex(accountId) + randomBase62(32);
