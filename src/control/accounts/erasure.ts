import { eq } from "drizzle-orm";
import { accountObject } from "../account-client";
import { billingCustomers, billingSubscriptions } from "../billing-schema";
import type { Db } from "../db";
import {
  accounts,
  apiKeys,
  idempotencyKeys,
  lists,
  memberships,
  oauthConnections,
  sessions,
  tasks,
  waitingMoves,
} from "../schema";

/**
 * Erases an account and everything it owns: its object's storage first (its tasks, lists, search index,
 * and what its requests judge, so every key and connection is refused from then on), then D1's rows in
 * one batch (one transaction: all or nothing). D1 still holds tasks, lists and idempotency records of an
 * account that waits for the move from D1 (src/control/move-from-d1.ts).
 * The tables are named here rather than left to ON DELETE CASCADE so the intent is readable and
 * does not hang on a pragma; test/account/erasure.test.ts walks every table in sqlite_master, so
 * a table added later that holds account rows fails that test until it is listed here.
 * Children go first, the account last. Deleting the tasks also deletes their rows of the search index
 * (tasks_fts, by trigger, migration 0008); lists go after the tasks, whose triggers would otherwise touch them.
 * Returns the grant ids of the account's OAuth connections: with their rows gone every token of theirs is
 * refused at once; the caller then clears the grants from the provider's KV.
 */
export async function eraseAccount(db: Db, env: Env, accountId: string): Promise<{ grantIds: string[] }> {
  await accountObject(env, accountId).erase(accountId);
  const [connections] = await db.batch([
    db
      .delete(oauthConnections)
      .where(eq(oauthConnections.accountId, accountId))
      .returning({ grantId: oauthConnections.grantId }),
    db.delete(idempotencyKeys).where(eq(idempotencyKeys.accountId, accountId)),
    // Tombstones included: a deleted task's row is still the account's data.
    db.delete(tasks).where(eq(tasks.accountId, accountId)),
    db.delete(lists).where(eq(lists.accountId, accountId)),
    db.delete(apiKeys).where(eq(apiKeys.accountId, accountId)),
    db.delete(sessions).where(eq(sessions.accountId, accountId)),
    db.delete(memberships).where(eq(memberships.accountId, accountId)),
    // Stripe keeps its own records (docs/billing.md); here only the link to them goes, and later events find no account.
    db.delete(billingSubscriptions).where(eq(billingSubscriptions.accountId, accountId)),
    db.delete(billingCustomers).where(eq(billingCustomers.accountId, accountId)),
    db.delete(waitingMoves).where(eq(waitingMoves.accountId, accountId)),
    db.delete(accounts).where(eq(accounts.id, accountId)),
  ]);
  return { grantIds: connections.map((row) => row.grantId) };
}
