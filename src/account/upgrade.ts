import { eq, getTableColumns } from "drizzle-orm";
import { createDb } from "../db/client";
import * as d1 from "../db/schema";
import type { AccountDb } from "../domain/context";
import { account, apiKeys, connections, idempotencyKeys, lists, type TaskRow, tasks } from "./schema";

/**
 * The move from the single-database release: an account whose object has no row yet copies its rows
 * from D1 on its first request (object.ts runs this while no other request of the account can start),
 * then deletes its task, list and idempotency rows from D1. The account, its keys and connections stay
 * in D1, the control plane; the object keeps what a task request judges. Sign-up opens a new account's
 * object the same way, with nothing to move.
 */

export interface LegacyAccount {
  account: typeof account.$inferInsert;
  keys: (typeof apiKeys.$inferInsert)[];
  connections: (typeof connections.$inferInsert)[];
  lists: (typeof lists.$inferInsert)[];
  tasks: TaskRow[];
  idempotencyKeys: (typeof idempotencyKeys.$inferInsert)[];
}

const { accountId: _owner, ...taskColumns } = getTableColumns(d1.tasks);
const booleanColumns = Object.entries(getTableColumns(tasks))
  .filter(([, column]) => column.dataType === "boolean")
  .map(([key]) => key);

/** A stored replay of the previous release (its SQL JSON kept booleans as 0 and 1) as a row. */
function storedRow(json: string): string {
  const row = JSON.parse(json) as Record<string, unknown>;
  for (const key of booleanColumns) row[key] = !!row[key];
  return JSON.stringify(row);
}

/** The account's rows in D1, in one batch (one snapshot); null when D1 has no such account. */
export async function readLegacyAccount(binding: D1Database, accountId: string): Promise<LegacyAccount | null> {
  const db = createDb(binding);
  const [[row], [membership], keyRows, connectionRows, listRows, taskRows, idempotencyRows] = await db.batch([
    db.select().from(d1.accounts).where(eq(d1.accounts.id, accountId)),
    db.select().from(d1.memberships).where(eq(d1.memberships.accountId, accountId)),
    db.select().from(d1.apiKeys).where(eq(d1.apiKeys.accountId, accountId)),
    db.select().from(d1.oauthConnections).where(eq(d1.oauthConnections.accountId, accountId)),
    db.select().from(d1.lists).where(eq(d1.lists.accountId, accountId)),
    db.select(taskColumns).from(d1.tasks).where(eq(d1.tasks.accountId, accountId)),
    db.select().from(d1.idempotencyKeys).where(eq(d1.idempotencyKeys.accountId, accountId)),
  ]);
  if (!row) return null;
  return {
    account: {
      id: row.id,
      timeZone: row.timeZone,
      plan: membership?.plan ?? "free",
      planExpiresAt: membership?.expiresAt ?? null,
      legacyRowsPending: listRows.length + taskRows.length + idempotencyRows.length > 0,
    },
    keys: keyRows.map(({ keyHash, id, expiresAt, revokedAt, lastUsedAt }) => ({
      keyHash,
      id,
      expiresAt,
      revokedAt,
      lastUsedAt,
    })),
    connections: connectionRows.map(({ id, revokedAt, lastUsedAt, liveGeneration }) => ({
      id,
      revokedAt,
      lastUsedAt,
      liveGeneration,
    })),
    lists: listRows.map(({ accountId: _, ...list }) => list),
    tasks: taskRows,
    // A claim whose task was never stored (a request cut short) has nothing to replay.
    idempotencyKeys: idempotencyRows.flatMap(({ key, requestHash, taskId, response, createdAt, expiresAt }) =>
      response ? [{ key, requestHash, taskId, response: storedRow(response), createdAt, expiresAt }] : [],
    ),
  };
}

/**
 * Writes the rows into the object, inside its transaction. Lists go first, so the tasks' triggers find
 * them; the triggers index every live task for search and move its list's updated_at, which is then put
 * back, so a `since` sync sees nothing changed by the move.
 */
export function writeLegacyAccount(db: AccountDb, legacy: LegacyAccount): void {
  db.insert(account).values(legacy.account).run();
  for (const key of legacy.keys) db.insert(apiKeys).values(key).run();
  for (const connection of legacy.connections) db.insert(connections).values(connection).run();
  for (const list of legacy.lists) db.insert(lists).values(list).run();
  for (const task of legacy.tasks) db.insert(tasks).values(task).run();
  for (const list of legacy.lists)
    db.update(lists).set({ updatedAt: list.updatedAt }).where(eq(lists.id, list.id)).run();
  for (const record of legacy.idempotencyKeys) db.insert(idempotencyKeys).values(record).run();
}

/** Deletes the moved rows from D1, in one batch. The object's alarm retries it until it succeeds. */
export async function dropLegacyRows(binding: D1Database, accountId: string): Promise<void> {
  const db = createDb(binding);
  await db.batch([
    db.delete(d1.idempotencyKeys).where(eq(d1.idempotencyKeys.accountId, accountId)),
    db.delete(d1.tasks).where(eq(d1.tasks.accountId, accountId)),
    db.delete(d1.lists).where(eq(d1.lists.accountId, accountId)),
  ]);
}

/** Accounts moved per run of the daily job. */
const UPGRADES_PER_RUN = 200;

/**
 * The daily job's part in the move: accounts that have not made a request since the account objects
 * still have rows in D1; opening their objects moves them, so D1 ends up holding no task at all.
 */
export async function upgradeWaitingAccounts(env: Env, open: (accountId: string) => Promise<void>): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT account_id AS id FROM tasks UNION SELECT account_id FROM lists
     UNION SELECT account_id FROM idempotency_keys LIMIT ${UPGRADES_PER_RUN}`,
  ).all<{ id: string }>();
  for (const { id } of results) await open(id);
  return results.length;
}
