import { and, desc, eq, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { compiled } from "../../db/compiled";
import { alias } from "drizzle-orm/sqlite-core";
import { apiKeys, nowSql } from "../../db/schema";
import { sha256Hex } from "../crypto";
import { AppError } from "../errors";
import { newId } from "../ids";
import type { Actor } from "../context";
import { apiKeyHint, generateApiKey, hasValidApiKeyFormat } from "./format";
import { activeMaxSql } from "../accounts/membership";

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

export const listApiKeys = (db: Db, accountId: string): Promise<ApiKeySummary[]> =>
  db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));

/**
 * Creates a key and returns its plaintext once. Only the SHA-256 and a hint are stored.
 * The active-key limit is enforced inside the INSERT itself, so two parallel creations
 * cannot both slip past it.
 */
export async function createApiKey(
  db: Db,
  accountId: string,
  input: { name: string; expiresAt?: string | null },
): Promise<ApiKeySummary & { key: string }> {
  const key = generateApiKey();
  const id = newId();
  const keyHash = await sha256Hex(key);
  const hint = apiKeyHint(key);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  const inserted = await db.run(sql`
    INSERT INTO api_keys (id, account_id, name, key_hash, hint, expires_at)
    SELECT ${id}, ${accountId}, ${input.name}, ${keyHash}, ${hint}, ${expiresAt}
    WHERE (SELECT count(*) FROM api_keys WHERE account_id = ${accountId} AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > ${nowSql})) < ${MAX_ACTIVE_KEYS}`);
  if (!inserted.meta.changes) {
    throw new AppError(
      "key_limit_reached",
      `An account can have at most ${MAX_ACTIVE_KEYS} active API keys. Revoke one first.`,
    );
  }
  const [row] = await db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.id, id));
  return { ...row!, key };
}

export async function revokeApiKey(db: Db, accountId: string, id: string): Promise<void> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: nowSql })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new AppError("not_found", "No active API key with this id.");
}

export interface KeyAuthentication {
  actor: Actor;
  /** Set when lastUsedAt is older than a minute and should be refreshed (off the hot path). */
  touch?: () => Promise<unknown>;
}

const UNAUTHORIZED =
  "A valid API key is required: send `Authorization: Bearer todo_live_…` (create one under AI connection).";

/** Format and checksum first (no database), then the SHA-256 the key is stored and looked up by. */
export async function verifiedKeyHash(key: string | undefined): Promise<string> {
  if (!key || !hasValidApiKeyFormat(key)) throw new AppError("unauthorized", UNAUTHORIZED);
  return sha256Hex(key);
}

/** A key hash, or the placeholder a compiled statement fills with it. */
type KeyHash = string | Placeholder;

const liveKeySql = (keyHash: KeyHash) =>
  sql`k.key_hash = ${keyHash} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${nowSql})`;

/**
 * The account a live key with active Max acts for, as a SQL subquery (NULL otherwise). Verbs scope by it
 * so a key check can share the verb's D1 round trip instead of costing one of its own.
 *
 * Here and in the key lookup below, membership and account are read by correlated subqueries, not
 * JOINs: SQLite (3.51, as in D1 and workerd) re-plans a statement on every run when a join compares a
 * column with a bound parameter, because it may plan with the value. Measured with perf on workerd,
 * that re-plan cost about 60 µs per key lookup and 160 µs per listing, more than running them.
 * Subqueries keep the cached plan (see also db/compiled.ts).
 */
export const keyAccountSql = (keyHash: KeyHash, condition?: SQL) =>
  sql`(SELECT k.account_id FROM api_keys k
       WHERE ${liveKeySql(keyHash)} AND (SELECT ${activeMaxSql("m")} FROM memberships m WHERE m.account_id = k.account_id)${condition ? sql` AND ${condition}` : sql``})`;

/**
 * keyAccountSql, but NULL also while the account's tasks_version is still `knownVersion`: a listing
 * scoped by it reads no task when the isolate already holds the current page (see listing-cache.ts).
 */
export const keyAccountChangedSql = (keyHash: KeyHash, knownVersion: unknown) =>
  keyAccountSql(
    keyHash,
    sql`(SELECT a.tasks_version FROM accounts a WHERE a.id = k.account_id) IS NOT ${knownVersion}`,
  );

const k = alias(apiKeys, "k");

/** What a key lookup reads, as SQL over the live key row `k`: shared by the lookup and the verdict below. */
const keyActorColumns = {
  keyId: sql<string>`${k.id}`,
  accountId: sql<string>`${k.accountId}`,
  timeZone: sql<string>`(SELECT a.time_zone FROM accounts a WHERE a.id = k.account_id)`,
  /** Changes with every write to the account's tasks (migration 0003); NULL before the first. */
  tasksVersion: sql<string | null>`(SELECT a.tasks_version FROM accounts a WHERE a.id = k.account_id)`,
  maxActive: sql<number | null>`(SELECT ${activeMaxSql("m")} FROM memberships m WHERE m.account_id = k.account_id)`,
  stale: sql<number>`(k.last_used_at IS NULL OR k.last_used_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds'))`,
};

export type KeyActorRow = { [K in keyof typeof keyActorColumns]: (typeof keyActorColumns)[K]["_"]["type"] };

const keyActorSelect = (db: Db, keyHash: KeyHash) => db.select(keyActorColumns).from(k).where(liveKeySql(keyHash));

/**
 * The key lookup as one scalar value: a JSON array of keyActorColumns, or NULL for an unknown, revoked
 * or expired key. A statement that always yields one row (an aggregate, such as the listing) carries
 * it as a column, so the verb needs no lookup statement of its own: one statement less per request,
 * in the same snapshot as the verb. Read it back with `keyVerdictRows`.
 */
export const keyVerdictSql = (keyHash: KeyHash) =>
  sql<
    string | null
  >`(SELECT json_array(${sql.join(Object.values(keyActorColumns), sql`, `)}) FROM api_keys k WHERE ${liveKeySql(keyHash)})`;

/** A keyVerdictSql value as the rows of the key lookup (none for a refused key). */
export function keyVerdictRows(verdict: string | null): KeyActorRow[] {
  if (verdict === null) return [];
  const values = JSON.parse(verdict) as unknown[];
  return [Object.fromEntries(Object.keys(keyActorColumns).map((name, i) => [name, values[i]])) as KeyActorRow];
}

/** Key, account and membership in one statement, compiled once (it runs on every key request). */
const keyActor = compiled<{ keyHash: string }>((db, p) => keyActorSelect(db, p.keyHash));

/** The key lookup as an item of a verb's `db.batch()`. */
export const keyActorQuery = (db: Db, keyHash: string) => keyActor.with(db, { keyHash });

/** The result of the key lookup as an actor, or `unauthorized` when the key is unknown, revoked or expired. */
export function toKeyAuthentication(db: Db, [row]: KeyActorRow[]): KeyAuthentication {
  if (!row) throw new AppError("unauthorized", UNAUTHORIZED);
  const actor: Actor = {
    accountId: row.accountId,
    keyId: row.keyId,
    maxActive: !!row.maxActive,
    timeZone: row.timeZone,
  };
  const touch = row.stale
    ? () => db.update(apiKeys).set({ lastUsedAt: nowSql }).where(eq(apiKeys.id, row.keyId))
    : undefined;
  return { actor, touch };
}

/**
 * Resolves a bearer credential to an actor, or throws `unauthorized`.
 * Runs on every request (no cache), so a revocation or a lapsed membership
 * takes effect on the very next request. Key, account and membership are one query.
 */
export async function authenticateKeyHash(db: Db, keyHash: string): Promise<KeyAuthentication> {
  return toKeyAuthentication(db, (await keyActor.run(db, { keyHash })) as KeyActorRow[]);
}

export function requireMax(actor: Actor): void {
  if (!actor.maxActive) {
    throw new AppError(
      "max_required",
      "Task access needs an active Max membership. Upgrade on the account page, then retry with the same key.",
    );
  }
}
