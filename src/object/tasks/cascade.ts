import { inArray } from "drizzle-orm";
import type { AccountContext, AccountDb } from "../context";
import { tasks } from "../schema";
import { insertTask } from "./insert";
import type { Cascaded } from "./live";
import { repeatedColumns, setClause, toTask } from "./row";
import { ancestorsOf, descendantsOf } from "./tree";

/**
 * What a change to one task does to the others of its tree (docs/api.md, "Subtasks"), each a change of
 * its own that raises its own event (verbs/events.ts).
 */

/** Completing a parent completes its open subtasks, at every level. */
export function completeSubtasks(db: AccountDb, id: string): Cascaded[] {
  const open = descendantsOf(db, id).filter((row) => !row.completed);
  if (open.length === 0) return [];
  return db
    .update(tasks)
    .set(setClause({ completed: true }))
    .where(
      inArray(
        tasks.id,
        open.map((row) => row.id),
      ),
    )
    .returning()
    .all()
    .map((row) => ({ type: "task.completed", task: toTask(row) }));
}

/** An open subtask has open parents: reopening one (or adding one) reopens its completed parents. */
export function reopenParents(db: AccountDb, row: { parentId: string | null; completed: boolean }): Cascaded[] {
  if (row.completed || !row.parentId) return [];
  const completed = ancestorsOf(db, row).filter((parent) => parent.completed);
  if (completed.length === 0) return [];
  return db
    .update(tasks)
    .set(setClause({ completed: false }))
    .where(
      inArray(
        tasks.id,
        completed.map((parent) => parent.id),
      ),
    )
    .returning()
    .all()
    .map((parent) => ({ type: "task.updated", task: toTask(parent) }));
}

/** A parent's subtasks follow it to another list (or out of every list). */
export function moveSubtasks(db: AccountDb, id: string, listId: string | null): Cascaded[] {
  const below = descendantsOf(db, id).filter((row) => row.listId !== listId);
  if (below.length === 0) return [];
  return db
    .update(tasks)
    .set(setClause({ listId }))
    .where(
      inArray(
        tasks.id,
        below.map((row) => row.id),
      ),
    )
    .returning()
    .all()
    .map((row) => ({ type: "task.updated", task: toTask(row) }));
}

/** Deleting a parent deletes its subtasks, each leaving its own tombstone. Returns their ids. */
export function deleteSubtasks(db: AccountDb, id: string, deletedAt: unknown): string[] {
  const ids = descendantsOf(db, id).map((row) => row.id);
  if (ids.length > 0) db.update(tasks).set(setClause({ deletedAt })).where(inArray(tasks.id, ids)).run();
  return ids;
}

/**
 * A repeating parent's next occurrence gets a copy of its subtasks, open, in the same order and
 * nesting: what repeats of each (title, notes, priority, list), without dates of their own.
 */
export function copySubtasks(ctx: AccountContext, fromId: string, toId: string): Cascaded[] {
  const copies = new Map([[fromId, toId]]);
  return descendantsOf(ctx.db, fromId).map((row) => {
    const copy = insertTask(ctx, {
      ...repeatedColumns(row),
      parentId: copies.get(row.parentId!) ?? toId,
      position: row.position,
    });
    copies.set(row.id, copy.id);
    return { type: "task.created", task: toTask(copy) };
  });
}
