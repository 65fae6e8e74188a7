import { eq } from "drizzle-orm";
import { createDb } from "./db";
import { apiKeys } from "./schema";
import type { ParsedKey } from "./api-keys/format";

/**
 * Which account's object judges a key issued before keys were signed (api-keys/format.ts): D1's
 * directory by the key's hash, once per isolate. A hash never changes owner, so the answer can be kept
 * (revocation is judged by the object, on every request). Unknown hashes are not kept, so nobody can
 * fill the map with them. A `named` key's account must be the one its row names: its CRC proves
 * nothing, so the object is reached only for a key D1 knows. A signed key never comes here: its MAC
 * names its account (no lookup).
 */
const directory = new Map<string, string>();
const DIRECTORY_LIMIT = 10_000;

export async function accountOfUnsignedKey(
  env: Env,
  key: Exclude<ParsedKey, { format: "signed" }>,
  keyHash: string,
): Promise<string | undefined> {
  let accountId = directory.get(keyHash);
  if (!accountId) {
    const [row] = await createDb(env.DB)
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, keyHash));
    if (!row) return undefined;
    if (directory.size >= DIRECTORY_LIMIT) directory.clear();
    directory.set(keyHash, row.accountId);
    accountId = row.accountId;
  }
  return key.format === "named" && key.accountId !== accountId ? undefined : accountId;
}
