import { and, inArray, isNull } from "drizzle-orm";
import { AppError } from "../../domain/errors";
import { MAX_TASK_DEPTH } from "../../domain/tasks/values";
import type { AccountDb } from "../context";
import { tasks, type TaskRow } from "../schema";
import { whereLive } from "./live";

/**
 * Subtasks: a task's place in its tree (parent_id), at most MAX_TASK_DEPTH levels, a parent and its
 * subtasks in one list. Every walk is bounded by the depth, so each costs at most four small reads.
 */

const invalidParent = (message: string) =>
  new AppError("validation_failed", `Invalid parentId: ${message}`, [{ path: "parentId", message }]);

/** The live subtasks of these tasks, at every level, parents before their subtasks, siblings by position. */
export function descendantsOf(db: AccountDb, ...ids: string[]): TaskRow[] {
  const found: TaskRow[] = [];
  let parents = ids;
  for (let level = 0; level < MAX_TASK_DEPTH && parents.length > 0; level++) {
    const children = db
      .select()
      .from(tasks)
      .where(and(inArray(tasks.parentId, parents), isNull(tasks.deletedAt)))
      .orderBy(tasks.position, tasks.id)
      .all();
    found.push(...children);
    parents = children.map((child) => child.id);
  }
  return found;
}

/** The live tasks above this one, its parent first. */
export function ancestorsOf(db: AccountDb, row: Pick<TaskRow, "parentId">): TaskRow[] {
  const found: TaskRow[] = [];
  let parentId = row.parentId;
  while (parentId && found.length < MAX_TASK_DEPTH) {
    const parent = db.select().from(tasks).where(whereLive(parentId)).get();
    if (!parent) break;
    found.push(parent);
    parentId = parent.parentId;
  }
  return found;
}

/** How many levels a task's tree has, itself included: 1 without subtasks. */
export function heightOf(db: AccountDb, id: string): number {
  let height = 1;
  let level = [id];
  while (height <= MAX_TASK_DEPTH) {
    const children = db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.parentId, level), isNull(tasks.deletedAt)))
      .all();
    if (children.length === 0) break;
    height++;
    level = children.map((child) => child.id);
  }
  return height;
}

/**
 * The parent a task (`moving`, or a new one) may go under, with `height` levels of its own: a live task,
 * not the task itself nor one of its subtasks, and not so deep that a level past MAX_TASK_DEPTH appears.
 */
export function parentFor(db: AccountDb, parentId: string, height: number, moving?: string): TaskRow {
  const parent = db.select().from(tasks).where(whereLive(parentId)).get();
  if (!parent) throw invalidParent("no task with this id in your account");
  const above = ancestorsOf(db, parent);
  if (moving !== undefined && (parent.id === moving || above.some((task) => task.id === moving))) {
    throw invalidParent("a task cannot be a subtask of itself or of one of its own subtasks (that would be a cycle)");
  }
  const level = above.length + 1;
  if (level + height > MAX_TASK_DEPTH) {
    throw invalidParent(
      `tasks nest at most ${MAX_TASK_DEPTH} levels: the parent is at level ${level}, so ${height === 1 ? "this task" : `this task and its ${height - 1} level(s) of subtasks`} would reach level ${level + height}`,
    );
  }
  return parent;
}
