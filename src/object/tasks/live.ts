import { and, eq, isNull } from "drizzle-orm";
import { tasks, type TaskRow } from "../schema";
import type { AccountDb } from "../context";
import { AppError } from "../../domain/errors";
import { matchesVersions, type Versions } from "../../domain/tasks/etag";
import type { WriteNotice } from "../../domain/lists/notice";
import type { Task } from "../../domain/tasks/schemas";

/** The errors and the one read that every task verb shares (write.ts, complete.ts). */

export const notFound = () => new AppError("task_not_found", "No task with this id in your account.");
export const stale = () =>
  new AppError(
    "precondition_failed",
    "The task changed since you read it (If-Match does not match its ETag). Get it again, then retry.",
  );

/** A live (not deleted) task of the account, by id. */
export const whereLive = (id: string) => and(eq(tasks.id, id), isNull(tasks.deletedAt));

/** The live task, or 404; with If-Match versions, 412 unless it is still at one of them. */
export function liveTask(db: AccountDb, id: string, versions?: Versions): TaskRow {
  const row = db.select().from(tasks).where(whereLive(id)).get();
  if (!row) throw notFound();
  if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
  return row;
}

/** A change to another task of the same tree that a change brought with it (cascade.ts): its own event. */
export interface Cascaded {
  type: "task.created" | "task.completed" | "task.updated";
  task: Task;
}

/**
 * A changed task, and the next occurrence its completion created (repeating tasks); the other tasks of
 * its tree the change moved, completed, reopened or copied; and a list it created.
 */
export interface TaskChange {
  task: Task;
  next?: Task;
  cascade?: Cascaded[];
  notice?: WriteNotice;
}
