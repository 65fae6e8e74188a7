import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { changeAccount } from "../account-client";
import type { Db } from "../db";
import { memberships, nowSql } from "../schema";

/** SQL truth of "active Max" (1 or 0): plan max and not expired, judged by the database clock. */
export const activeMaxSql = sql<number>`(${and(
  eq(memberships.plan, "max"),
  or(isNull(memberships.expiresAt), gt(memberships.expiresAt, nowSql)),
)})`;

export interface Membership {
  plan: "free" | "max";
  active: boolean;
  expiresAt: string | null;
}

export function toMembership(
  row: { plan: string | null; expiresAt: string | null; active: number | boolean } | undefined,
): Membership {
  const plan = row?.plan === "max" ? "max" : "free";
  return { plan, active: plan === "max" && !!row?.active, expiresAt: row?.expiresAt ?? null };
}

/**
 * Who grants Max: the operator (PUT /admin/memberships) or a Stripe subscription (docs/billing.md).
 * `expiresAt` null means no end; a subscription's grant always has one, and "free" withdraws it.
 */
export interface MembershipGrant {
  source: "admin" | "subscription";
  plan: "free" | "max";
  expiresAt: string | null;
}

/**
 * The membership is the union of both grants: Max while either gives it, until the later end (an
 * operator's grant without an end outlasts any subscription). RFC 3339 UTC text orders as time.
 * SQL fragments: Drizzle has no builder for CASE.
 */
const effectivePlan = sql`CASE WHEN ${memberships.grantedPlan} = 'max' OR ${memberships.subscriptionExpiresAt} IS NOT NULL
  THEN 'max' ELSE 'free' END`;
const effectiveExpiry = sql`CASE
  WHEN ${memberships.grantedPlan} = 'max' AND ${memberships.grantedExpiresAt} IS NULL THEN NULL
  WHEN ${memberships.grantedPlan} = 'max' THEN max(${memberships.grantedExpiresAt}, coalesce(${memberships.subscriptionExpiresAt}, ''))
  ELSE ${memberships.subscriptionExpiresAt} END`;

/**
 * The one write of a membership, for every source: the operator's route and the Stripe webhook both
 * come here. D1 keeps both grants and their union (one batch: one transaction); the union then goes to
 * the account's object, which judges every task request, so the change applies on the next request.
 */
export async function setMembership(db: Db, env: Env, accountId: string, grant: MembershipGrant): Promise<void> {
  const own =
    grant.source === "admin"
      ? { grantedPlan: grant.plan, grantedExpiresAt: grant.expiresAt }
      : { subscriptionExpiresAt: grant.plan === "max" ? grant.expiresAt : null };
  const [, [union]] = await db.batch([
    db
      .insert(memberships)
      .values({ accountId, ...own })
      .onConflictDoUpdate({ target: memberships.accountId, set: own }),
    db
      .update(memberships)
      .set({ plan: effectivePlan, expiresAt: effectiveExpiry, updatedAt: nowSql })
      .where(eq(memberships.accountId, accountId))
      .returning({ plan: memberships.plan, expiresAt: memberships.expiresAt }),
  ]);
  if (union) await changeAccount(env, accountId, { kind: "membership", ...union });
}
