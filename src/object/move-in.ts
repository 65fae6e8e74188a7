import { eq } from "drizzle-orm";
import { generateNKeysBetween } from "fractional-indexing";
import type { AccountDb } from "./context";
import { account, apiKeys, connections, idempotencyKeys, lists, type TaskRow, tasks } from "./schema";

/**
 * The object's side of the move from D1 (src/control/move-from-d1.ts reads the rows in the Worker and
 * hands them over; `AccountObject.moveIn` writes them). Delete with that module.
 */
export interface MovedAccount {
  account: typeof account.$inferInsert;
  keys: (typeof apiKeys.$inferInsert)[];
  connections: (typeof connections.$inferInsert)[];
  lists: (typeof lists.$inferInsert)[];
  /** As the single-database release stored them: without the fields added since (control/schema.ts). */
  tasks: Omit<TaskRow, "parentId" | "priority" | "position" | "labels">[];
  idempotencyKeys: (typeof idempotencyKeys.$inferInsert)[];
}

/**
 * Writes the rows into the object, inside its transaction (account-object.ts `moveIn`). Lists go first, so the
 * tasks' triggers find them; the triggers index every live task for search and move its list's
 * updated_at, which is then put back, so a `since` sync sees nothing changed by the move.
 */
export function writeMovedAccount(db: AccountDb, moved: MovedAccount): void {
  db.insert(account).values(moved.account).run();
  for (const key of moved.keys) db.insert(apiKeys).values(key).run();
  for (const connection of moved.connections) db.insert(connections).values(connection).run();
  for (const list of moved.lists) db.insert(lists).values(list).run();
  for (const task of withNewFields(moved.tasks)) db.insert(tasks).values(task).run();
  for (const list of moved.lists)
    db.update(lists).set({ updatedAt: list.updatedAt }).where(eq(lists.id, list.id)).run();
  for (const record of moved.idempotencyKeys) db.insert(idempotencyKeys).values(record).run();
}

/**
 * What the objects' migrations 0005 and 0006 give the rows they find, given to moved rows: no labels; priority 4
 * if important, else 1; no parent; positions per list in the order listings gave them, (updatedAt, id).
 */
function withNewFields(rows: MovedAccount["tasks"]): TaskRow[] {
  const ordered = [...rows].sort((a, b) =>
    a.updatedAt === b.updatedAt ? (a.id < b.id ? -1 : 1) : a.updatedAt < b.updatedAt ? -1 : 1,
  );
  const byList = Map.groupBy(
    ordered.filter((row) => row.deletedAt === null),
    (row) => row.listId,
  );
  const positions = new Map<string, string>();
  for (const list of byList.values()) {
    const keys = generateNKeysBetween(null, null, list.length);
    for (const [i, row] of list.entries()) positions.set(row.id, keys[i]!);
  }
  return rows.map((row) => ({
    ...row,
    parentId: null,
    priority: row.important ? 4 : 1,
    position: positions.get(row.id) ?? "",
    labels: [],
  }));
}
