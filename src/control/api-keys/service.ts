import { and, desc, eq, gt, gte, isNull, ne, or } from "drizzle-orm";
import { changeAccount, reachAccount } from "../account-client";
import { UNAUTHORIZED } from "../../object/credentials";
import type { Db } from "../db";
import { apiKeys, nowSql } from "../schema";
import { sha256Hex } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { apiKeyHint, generateApiKey, isGenuineSignedKey, type ParsedKey, parseApiKey } from "./format";

/**
 * API keys on the control plane: D1 lists them for the account page; the account's object judges them
 * on every task request. Every change that decides a request (created, revoked) is written to the
 * object first, so it applies on the next request, then to D1.
 */

export const MAX_ACTIVE_KEYS = 10;

export interface ApiKeySummary {
  id: string;
  name: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const summaryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  hint: apiKeys.hint,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
};

/** The account's keys, newest first, each with when its object last saw it used. */
export async function listApiKeys(db: Db, env: Env, accountId: string): Promise<ApiKeySummary[]> {
  const [rows, usage] = await Promise.all([
    db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt)),
    reachAccount(env, accountId, (object) => object.usage()),
  ]);
  const used = new Map(usage.keys.map((key) => [key.id, key.lastUsedAt]));
  return rows.map((row) => ({ ...row, lastUsedAt: used.get(row.id) ?? row.lastUsedAt }));
}

/** The account's keys that are neither revoked nor expired. */
const activeKeysOf = (accountId: string) =>
  and(
    eq(apiKeys.accountId, accountId),
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, nowSql)),
  );

/**
 * Creates a key and returns its plaintext once. Only the SHA-256 and a hint are stored. The
 * active-key limit is enforced in the insert's own batch (one D1 transaction): the key goes in, and
 * out again if the account already had the most it may have, so two parallel creations cannot both
 * slip past it. The key is live in the account's object before it is shown.
 */
export async function createApiKey(
  db: Db,
  env: Env,
  accountId: string,
  input: { name: string; expiresAt?: string | null },
): Promise<ApiKeySummary & { key: string }> {
  const key = await generateApiKey(env.CREDENTIAL_SECRET, accountId);
  const id = newId();
  const keyHash = await sha256Hex(key);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  const [, overLimit] = await db.batch([
    db.insert(apiKeys).values({ id, accountId, name: input.name, keyHash, hint: apiKeyHint(key), expiresAt }),
    db
      .delete(apiKeys)
      .where(
        and(
          eq(apiKeys.id, id),
          gte(db.$count(apiKeys, and(activeKeysOf(accountId), ne(apiKeys.id, id))), MAX_ACTIVE_KEYS),
        ),
      )
      .returning({ id: apiKeys.id }),
  ]);
  if (overLimit.length > 0) {
    throw new AppError(
      "key_limit_reached",
      `An account can have at most ${MAX_ACTIVE_KEYS} active API keys. Revoke one first.`,
    );
  }
  // The object must know the key before anyone holds it; without that, the row must not stay listed.
  await changeAccount(env, accountId, { kind: "keyCreated", id, keyHash, expiresAt }).catch(async (e) => {
    await db.delete(apiKeys).where(eq(apiKeys.id, id));
    throw e;
  });
  const [row] = await db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.id, id));
  return { ...row!, key };
}

/** Revokes a key: refused by its account's object from the next request on. */
export async function revokeApiKey(db: Db, env: Env, accountId: string, id: string): Promise<void> {
  const live = and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt));
  const [found] = await db.select({ id: apiKeys.id }).from(apiKeys).where(live);
  if (!found) throw new AppError("not_found", "No active API key with this id.");
  await changeAccount(env, accountId, { kind: "keyRevoked", id });
  await db.update(apiKeys).set({ revokedAt: nowSql }).where(live);
}

/**
 * A presented key, judged with no I/O: its format and checksum, and a signed key's MAC (format.ts), so a
 * forged key is 401 before any object call, D1 query or KV read. Then the SHA-256 it is stored and judged by.
 */
export async function checkedKey(env: Env, key: string | undefined): Promise<{ parsed: ParsedKey; keyHash: string }> {
  const parsed = key ? parseApiKey(key) : undefined;
  if (!parsed || (parsed.format === "signed" && !(await isGenuineSignedKey(env.CREDENTIAL_SECRET, parsed)))) {
    throw new AppError("unauthorized", UNAUTHORIZED);
  }
  return { parsed, keyHash: await sha256Hex(key!) };
}
