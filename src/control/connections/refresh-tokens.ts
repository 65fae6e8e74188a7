import { and, eq, exists, isNotNull, isNull, lt, lte, not, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../db";
import { oauthConnections, oauthRefreshTokens } from "../schema";
import { sha256Hex } from "../../domain/crypto";
import { CONNECTION_IDLE_DAYS } from "./service";

/**
 * Refresh-token reuse detection (OAuth 2.1 §4.3.1, RFC 9700 §4.14.2) around the provider's rotation.
 * The provider rotates refresh tokens and keeps the previous one valid until the new one is used, with
 * no time limit; these rows add the limit and the consequence:
 *
 * - a replaced refresh token works for REFRESH_GRACE_SECONDS after its replacement (a client retrying a
 *   refresh whose answer it lost); presented later, it ends the connection and the grant;
 * - one refresh per connection at a time (a lease on its row): concurrent refreshes of one token get one
 *   new pair, the others `invalid_grant`, so at most one token chain lives.
 *
 * Times are the Worker's clock at both ends (the provider measures token lifetimes with it too).
 */

export const REFRESH_GRACE_SECONDS = 60;
/** Longer than any refresh takes; a Worker that dies mid-refresh holds the connection no longer. */
const LEASE_SECONDS = 30;

const at = (offsetSeconds = 0) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

/** The provider's id of a token: its SHA-256 in hex (`generateTokenId`). */
export const refreshTokenHash = sha256Hex;

/** A refresh token row seen from a statement on its connection (the EXISTS subqueries below). */
const token = alias(oauthRefreshTokens, "t");

export type RefreshClaim =
  /** Go ahead: the provider judges the token; then completeRefresh or releaseRefresh. */
  | { kind: "claimed"; connectionId: string; generation: number }
  /** Another refresh of this connection is in flight. */
  | { kind: "busy" }
  /** A replaced token after its grace period: the caller ends the connection. */
  | { kind: "reused" }
  /** No live connection for this grant. */
  | { kind: "ended" };

/**
 * Takes the connection's refresh lease for a token, in one statement, unless the token was replaced
 * more than the grace period ago, the connection is revoked, or another refresh holds it. A token
 * these rows do not know (one issued before them) is the provider's to judge, and is adopted.
 */
export async function claimRefresh(db: Db, accountId: string, grantId: string, hash: string): Promise<RefreshClaim> {
  const now = at();
  const graceStart = at(-REFRESH_GRACE_SECONDS);
  const replacedLongAgo = exists(
    db
      .select({ one: sql`1` })
      .from(token)
      .where(
        and(eq(token.tokenHash, hash), eq(token.connectionId, oauthConnections.id), lte(token.replacedAt, graceStart)),
      ),
  );
  const [claimed] = await db
    .update(oauthConnections)
    .set({ refreshLeaseUntil: at(LEASE_SECONDS), refreshGeneration: sql`${oauthConnections.refreshGeneration} + 1` })
    .where(
      and(
        eq(oauthConnections.grantId, grantId),
        eq(oauthConnections.accountId, accountId),
        isNull(oauthConnections.revokedAt),
        or(isNull(oauthConnections.refreshLeaseUntil), lte(oauthConnections.refreshLeaseUntil, now)),
        not(replacedLongAgo),
      ),
    )
    .returning({ id: oauthConnections.id, generation: oauthConnections.refreshGeneration });
  if (claimed) return { kind: "claimed", connectionId: claimed.id, generation: claimed.generation };
  const [row] = await db
    .select({ revokedAt: oauthConnections.revokedAt, reused: sql<number>`${replacedLongAgo}` })
    .from(oauthConnections)
    .where(and(eq(oauthConnections.grantId, grantId), eq(oauthConnections.accountId, accountId)));
  if (!row || row.revokedAt !== null) return { kind: "ended" };
  return row.reused ? { kind: "reused" } : { kind: "busy" };
}

/**
 * The provider issued `newHash` for `presentedHash` at `generation`: every live token of the connection
 * is now replaced (the presented one, and in a retry the pair it abandons), the new one is live, and the
 * lease ends. A retry (the presented token was already replaced) also retires the access tokens issued
 * before this generation, so one token chain lives. Tokens replaced longer ago than a grant can idle
 * are forgotten. One batch.
 */
export async function completeRefresh(
  db: Db,
  refresh: { connectionId: string; generation: number },
  presentedHash: string,
  newHash: string,
): Promise<{ retired: boolean }> {
  const { connectionId, generation } = refresh;
  const now = at();
  const mine = eq(oauthRefreshTokens.connectionId, connectionId);
  const wasReplaced = exists(
    db
      .select({ one: sql`1` })
      .from(token)
      .where(
        and(eq(token.tokenHash, presentedHash), eq(token.connectionId, connectionId), isNotNull(token.replacedAt)),
      ),
  );
  const [retired] = await db.batch([
    db
      .update(oauthConnections)
      .set({ liveGeneration: generation })
      .where(and(eq(oauthConnections.id, connectionId), wasReplaced)),
    db
      .update(oauthRefreshTokens)
      .set({ replacedAt: now })
      .where(and(mine, isNull(oauthRefreshTokens.replacedAt))),
    // A token from before these rows: on record from now, replaced now.
    db
      .insert(oauthRefreshTokens)
      .values({ tokenHash: presentedHash, connectionId, issuedAt: now, replacedAt: now })
      .onConflictDoNothing(),
    db.insert(oauthRefreshTokens).values({ tokenHash: newHash, connectionId, issuedAt: now }),
    db
      .delete(oauthRefreshTokens)
      .where(and(mine, lt(oauthRefreshTokens.replacedAt, at(-CONNECTION_IDLE_DAYS * 86_400)))),
    db.update(oauthConnections).set({ refreshLeaseUntil: null }).where(eq(oauthConnections.id, connectionId)),
  ]);
  return { retired: (retired.meta.changes ?? 0) > 0 };
}

/** The provider refused the refresh: nothing rotated, the lease ends. */
export async function releaseRefresh(db: Db, connectionId: string) {
  await db.update(oauthConnections).set({ refreshLeaseUntil: null }).where(eq(oauthConnections.id, connectionId));
}

/** The code exchange issued the grant's first refresh token: it is the live one. */
export async function recordFirstRefreshToken(db: Db, accountId: string, grantId: string, hash: string) {
  await db
    .insert(oauthRefreshTokens)
    .select(
      db
        .select({
          tokenHash: sql<string>`${hash}`.as("token_hash"),
          connectionId: oauthConnections.id,
          issuedAt: sql<string>`${at()}`.as("issued_at"),
          replacedAt: sql<string | null>`NULL`.as("replaced_at"),
        })
        .from(oauthConnections)
        .where(and(eq(oauthConnections.grantId, grantId), eq(oauthConnections.accountId, accountId))),
    )
    .onConflictDoNothing();
}
