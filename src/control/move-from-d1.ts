import { count, eq, getTableColumns } from "drizzle-orm";
import { createDb } from "./db";
import * as d1 from "./schema";
import { unwrap } from "../object/result";
import type { MovedAccount } from "../object/move-in";
import { tasks } from "../object/schema";

/**
 * The move from D1: an account made before the account objects (or before sign-up set up its object)
 * still has its rows in D1. D1's `waiting_moves` (migration 0013) lists those accounts; no other account
 * ever runs this code. The Worker reads the account's rows from D1 in one batch and hands them to its
 * object in one call (`AccountObject.moveIn`, which writes them in one transaction if the object has no
 * account yet), then deletes the moved task, list and idempotency rows and the account's waiting mark
 * from D1 in one batch. The object never reads D1 and never waits on it.
 * It runs when a call finds an object without its account (account-client.ts `reachAccount`, then the call is
 * made once more), and for up to MOVES_PER_RUN accounts a day (the daily job, src/index.ts), which logs
 * how many still wait.
 *
 * Delete this module, `moveIn` in account-object.ts, the `waiting_moves` table and D1's tasks, lists and
 * idempotency_keys tables once the daily job logs `waiting: 0` (and the objects' unused `jobs`,
 * `upgraded_at` and `legacy_rows_pending`, kept for a rollback: schema.ts).
 */

const { accountId: _owner, ...taskColumns } = getTableColumns(d1.tasks);
const booleanColumns = Object.entries(getTableColumns(tasks))
  .filter(([, column]) => column.dataType === "boolean")
  .map(([key]) => key);

/**
 * A stored replay of the single-database release (its SQL JSON kept booleans as 0 and 1) as a row; that
 * release had no labels, so the row has none.
 */
function storedRow(json: string): string {
  const row = JSON.parse(json) as Record<string, unknown>;
  for (const key of booleanColumns) row[key] = !!row[key];
  row.labels ??= [];
  return JSON.stringify(row);
}

/** The account's rows in D1, in one batch (one snapshot); null unless D1 says the account waits. */
export async function readWaitingAccount(binding: D1Database, accountId: string): Promise<MovedAccount | null> {
  const db = createDb(binding);
  const [[waiting], [row], [membership], keyRows, connectionRows, listRows, taskRows, idempotencyRows] = await db.batch(
    [
      db.select().from(d1.waitingMoves).where(eq(d1.waitingMoves.accountId, accountId)),
      db.select().from(d1.accounts).where(eq(d1.accounts.id, accountId)),
      db.select().from(d1.memberships).where(eq(d1.memberships.accountId, accountId)),
      db.select().from(d1.apiKeys).where(eq(d1.apiKeys.accountId, accountId)),
      db.select().from(d1.oauthConnections).where(eq(d1.oauthConnections.accountId, accountId)),
      db.select().from(d1.lists).where(eq(d1.lists.accountId, accountId)),
      db.select(taskColumns).from(d1.tasks).where(eq(d1.tasks.accountId, accountId)),
      db.select().from(d1.idempotencyKeys).where(eq(d1.idempotencyKeys.accountId, accountId)),
    ],
  );
  if (!waiting || !row) return null;
  return {
    account: {
      id: row.id,
      timeZone: row.timeZone,
      plan: membership?.plan ?? "free",
      planExpiresAt: membership?.expiresAt ?? null,
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

/** The moved rows and the waiting mark out of D1, in one batch: all or nothing. */
async function finishMove(binding: D1Database, accountId: string): Promise<void> {
  const db = createDb(binding);
  await db.batch([
    db.delete(d1.idempotencyKeys).where(eq(d1.idempotencyKeys.accountId, accountId)),
    db.delete(d1.tasks).where(eq(d1.tasks.accountId, accountId)),
    db.delete(d1.lists).where(eq(d1.lists.accountId, accountId)),
    db.delete(d1.waitingMoves).where(eq(d1.waitingMoves.accountId, accountId)),
  ]);
}

/**
 * Moves the account into its object if D1 says it waits; false if it does not. An object that has its
 * account already (moved by a request a moment before, or made by sign-up) keeps its rows, and D1's are
 * deleted all the same. If that delete fails, the account still waits, and the daily job tries again.
 */
export async function moveFromD1(
  env: Env,
  accountId: string,
  object: ReturnType<Env["ACCOUNTS"]["get"]>,
): Promise<boolean> {
  const moved = await readWaitingAccount(env.DB, accountId);
  if (!moved) return false;
  unwrap(await object.moveIn(moved));
  await finishMove(env.DB, accountId).catch((e) =>
    console.error("move from D1: rows not deleted yet", String(e).slice(0, 200)),
  );
  return true;
}

/** Accounts moved per run of the daily job. */
const MOVES_PER_RUN = 200;

/**
 * The daily job's part in the move: accounts that have made no request since they began to wait are
 * moved here, so D1 ends up holding no task at all. Returns how many it moved and how many still wait.
 */
export async function moveWaitingAccounts(
  env: Env,
  objectOf: (accountId: string) => ReturnType<Env["ACCOUNTS"]["get"]>,
): Promise<{ moved: number; waiting: number }> {
  const db = createDb(env.DB);
  const batch = await db.select().from(d1.waitingMoves).limit(MOVES_PER_RUN);
  let moved = 0;
  for (const { accountId } of batch) {
    // One account that cannot be moved now (its object unreachable) does not hold up the others.
    try {
      if (await moveFromD1(env, accountId, objectOf(accountId))) moved++;
    } catch (e) {
      console.error("move from D1: account not moved yet", String(e).slice(0, 200));
    }
  }
  const [left] = await db.select({ waiting: count() }).from(d1.waitingMoves);
  return { moved, waiting: left?.waiting ?? 0 };
}
