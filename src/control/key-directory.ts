import { eq } from "drizzle-orm";
import { createDb } from "./db";
import { apiKeys } from "./schema";
import { accountIdOfKey } from "./api-keys/format";

/**
 * Which account's object judges an API key. A key issued since keys carry their account names it
 * (api-keys/format.ts): no lookup. An older key is found in D1's directory by its hash, once per
 * isolate: a hash never changes owner, so the answer can be kept (revocation is judged by the object,
 * on every request). Unknown hashes are not kept, so nobody can fill the map with them.
 */
const directory = new Map<string, string>();
const DIRECTORY_LIMIT = 10_000;

export async function accountOfKey(env: Env, key: string, keyHash: string): Promise<string | undefined> {
  const named = accountIdOfKey(key);
  if (named) return named;
  const known = directory.get(keyHash);
  if (known) return known;
  const [row] = await createDb(env.DB)
    .select({ accountId: apiKeys.accountId })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash));
  if (!row) return undefined;
  if (directory.size >= DIRECTORY_LIMIT) directory.clear();
  directory.set(keyHash, row.accountId);
  return row.accountId;
}
