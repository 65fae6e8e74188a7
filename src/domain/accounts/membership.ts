import { sql, type SQL } from "drizzle-orm";
import { changeAccount } from "../../account/client";
import type { Db } from "../../db/client";
import { memberships, nowSql } from "../../db/schema";

/** SQL truth of "active Max": plan max and not expired, judged by the database clock. */
export const activeMaxSql = (alias: string): SQL =>
  sql.raw(
    `(${alias}.plan = 'max' AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`,
  );

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
 * The one way a membership changes (the admin route; billing): the account's object first, which judges
 * task requests, so the change applies on the next request; then D1, which the account page shows.
 */
export async function setMembership(
  db: Db,
  env: Env,
  accountId: string,
  plan: "free" | "max",
  expiresAt: string | null,
): Promise<void> {
  await changeAccount(env, accountId, { kind: "membership", plan, expiresAt });
  await db
    .insert(memberships)
    .values({ accountId, plan, expiresAt })
    .onConflictDoUpdate({ target: memberships.accountId, set: { plan, expiresAt, updatedAt: nowSql } });
}
