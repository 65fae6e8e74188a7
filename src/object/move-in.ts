import { eq } from "drizzle-orm";
import type { AccountDb } from "./context";
import { account, apiKeys, connections, idempotencyKeys, lists, tasks } from "./schema";

/**
 * The object's side of the move from D1 (src/control/move-from-d1.ts reads the rows in the Worker and
 * hands them over; `AccountObject.moveIn` writes them). Delete with that module.
 */
export interface MovedAccount {
  account: typeof account.$inferInsert;
  keys: (typeof apiKeys.$inferInsert)[];
  connections: (typeof connections.$inferInsert)[];
  lists: (typeof lists.$inferInsert)[];
  /** As D1 holds them: without the columns only objects have (`objectOnly`), which take their defaults. */
  tasks: (typeof tasks.$inferInsert)[];
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
  for (const task of moved.tasks) db.insert(tasks).values(task).run();
  for (const list of moved.lists)
    db.update(lists).set({ updatedAt: list.updatedAt }).where(eq(lists.id, list.id)).run();
  for (const record of moved.idempotencyKeys) db.insert(idempotencyKeys).values(record).run();
}
