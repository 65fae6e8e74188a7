import { eq } from "drizzle-orm";
import { randomBase62 } from "../domain/crypto";
import { credentialMac, isCredentialMac, MAC_LENGTH } from "../domain/credential-mac";
import { accountHex, accountIdOfHex, ACCOUNT_HEX_LENGTH } from "../domain/account-hex";
import { createDb, type Db } from "./db";
import { unsignedFeeds } from "./schema";

/**
 * Feed tokens, `/feeds/<token>.ics`, judged on the Worker's side before any object is reached.
 * Today's token: the account's id (32 hex digits, which carry its data location) + 32 random base62
 * characters (190 bits) + their MAC (credential-mac.ts): a made-up token is 404 with no I/O.
 * A token made before tokens were signed (64 characters, no MAC) is honoured only for an account D1's
 * `unsigned_feeds` lists (D1 migration 0014: every account that existed then; a rotation or a disable
 * removes the account, since its unsigned token is dead from then on). So an unsigned token reaches an
 * object only for a real account that may still hold one, at one D1 read (positive answers kept per isolate),
 * and that object, which has only the current token's hash, refuses any other without writing.
 */

const RANDOM = 32;
const UNSIGNED = ACCOUNT_HEX_LENGTH + RANDOM;
const SIGNED = UNSIGNED + MAC_LENGTH;
const SHAPE = /^[0-9A-Za-z]+$/;

/** A new signed token for the account: the Worker hashes it before the object stores the hash. */
export async function newFeedToken(secret: string | undefined, accountId: string): Promise<string> {
  const hex = accountHex(accountId);
  const random = randomBase62(RANDOM);
  return hex + random + (await credentialMac(secret, "feed", hex, random));
}

const listed = new Set<string>();
const LISTED_LIMIT = 10_000;

/** Whether D1 lists the account as one that may still hold an unsigned token (kept per isolate when it does). */
async function mayHoldUnsignedToken(env: Env, accountId: string): Promise<boolean> {
  if (listed.has(accountId)) return true;
  const [row] = await createDb(env.DB)
    .select({ id: unsignedFeeds.accountId })
    .from(unsignedFeeds)
    .where(eq(unsignedFeeds.accountId, accountId));
  if (!row) return false;
  if (listed.size >= LISTED_LIMIT) listed.clear();
  listed.add(accountId);
  return true;
}

/** The account whose object judges this token, or undefined: a forged signed token costs no I/O. */
export async function accountOfFeedToken(env: Env, token: string): Promise<string | undefined> {
  if ((token.length !== SIGNED && token.length !== UNSIGNED) || !SHAPE.test(token)) return undefined;
  const hex = token.slice(0, ACCOUNT_HEX_LENGTH);
  const accountId = accountIdOfHex(hex);
  if (!accountId) return undefined;
  if (token.length === SIGNED) {
    const random = token.slice(ACCOUNT_HEX_LENGTH, UNSIGNED);
    return (await isCredentialMac(env.CREDENTIAL_SECRET, token.slice(UNSIGNED), "feed", hex, random))
      ? accountId
      : undefined;
  }
  return (await mayHoldUnsignedToken(env, accountId)) ? accountId : undefined;
}

/** After a rotation or a disable: the account's unsigned token, if it had one, is dead. */
export async function forgetUnsignedFeed(db: Db, accountId: string): Promise<void> {
  listed.delete(accountId);
  await db.delete(unsignedFeeds).where(eq(unsignedFeeds.accountId, accountId));
}
