import { and, desc, eq, gt, isNull, lt, ne, type SQL } from "drizzle-orm";
import { generateKeyBetween } from "fractional-indexing";
import { AppError } from "../../domain/errors";
import type { AccountDb } from "../context";
import { tasks, type TaskRow } from "../schema";
import { whereLive } from "./live";

/**
 * Manual order: `position` is a fractional-indexing key among a task's siblings (same list, same parent),
 * so a task goes between two others by writing its own row alone.
 */

/** Siblings: live tasks of this list and parent (either may be none). */
const siblingsOf = (listId: string | null, parentId: string | null): SQL =>
  and(
    isNull(tasks.deletedAt),
    listId === null ? isNull(tasks.listId) : eq(tasks.listId, listId),
    parentId === null ? isNull(tasks.parentId) : eq(tasks.parentId, parentId),
  )!;

/** After every sibling: where a new task, or one moved to a new list or parent, goes. */
export function lastPosition(db: AccountDb, listId: string | null, parentId: string | null, except?: string): string {
  const last = db
    .select({ position: tasks.position })
    .from(tasks)
    .where(and(siblingsOf(listId, parentId), except ? ne(tasks.id, except) : undefined))
    .orderBy(desc(tasks.position))
    .limit(1)
    .get();
  return generateKeyBetween(last?.position || null, null);
}

export type Side = "before" | "after";

/** The sibling a task is placed next to: a live task, not the task itself. */
export function neighbourOf(db: AccountDb, id: string, side: Side, moving?: string): TaskRow {
  const sibling = db.select().from(tasks).where(whereLive(id)).get();
  const message =
    sibling === undefined ? "no task with this id in your account" : "a task cannot be placed next to itself";
  if (sibling === undefined || sibling.id === moving)
    throw new AppError("validation_failed", `Invalid ${side}: ${message}`, [{ path: side, message }]);
  return sibling;
}

/** A key right before or after `sibling`, between it and its next sibling on that side (the moving task aside). */
export function positionNextTo(db: AccountDb, sibling: TaskRow, side: Side, moving?: string): string {
  const beyond = db
    .select({ position: tasks.position })
    .from(tasks)
    .where(
      and(
        siblingsOf(sibling.listId, sibling.parentId),
        side === "after" ? gt(tasks.position, sibling.position) : lt(tasks.position, sibling.position),
        moving ? ne(tasks.id, moving) : undefined,
      ),
    )
    .orderBy(side === "after" ? tasks.position : desc(tasks.position))
    .limit(1)
    .get()?.position;
  const [low, high] = side === "after" ? [sibling.position, beyond ?? null] : [beyond ?? null, sibling.position];
  // "" is no key (a row the object did not place): it sorts first, so it counts as the start.
  return generateKeyBetween(low || null, high || null);
}
