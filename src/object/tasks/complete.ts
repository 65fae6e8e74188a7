import { eq } from "drizzle-orm";
import { tasks, type TaskRow } from "../schema";
import type { AccountContext } from "../context";
import { type Versions, versionsIn } from "../../domain/tasks/etag";
import { insertTask } from "./insert";
import { liveTask, type TaskChange, whereLive } from "./live";
import { nextOccurrence } from "../../domain/tasks/recurrence";
import { repeatedColumns, type RowValues, setClause, toTask } from "./row";
import { completeSubtasks, copySubtasks } from "./cascade";

/**
 * Completion, and the next occurrence of a repeating task. Completing a completed task returns it
 * unchanged (idempotent); a repeating task gets its next occurrence, returned as `next`.
 */
export function completeTask(ctx: AccountContext, { id, ifMatch }: { id: string; ifMatch?: string }): TaskChange {
  return completeWith(ctx, id, { completed: true }, versionsIn(ifMatch, id), "return");
}

/**
 * What completing a task that is already completed does: `return` it unchanged (complete_task, a
 * retry), or `update` it with the rest of the patch (PATCH with `completed: true` and other fields).
 */
export type WhenCompleted = "return" | "update";

/**
 * Marks the task completed with `changes`. An open repeating task gets its next occurrence (unless the
 * rule is exhausted) and loses its own `repeat`, so reopening and completing it again cannot spawn a
 * second one; `nextId` remembers the occurrence so a retried completion can return it again. The
 * object's transaction makes the read and both writes one step.
 */
export function completeWith(
  ctx: AccountContext,
  id: string,
  changes: RowValues,
  versions: Versions | undefined,
  whenCompleted: WhenCompleted,
): TaskChange {
  const row = liveTask(ctx.db, id, versions);
  if (row.completed && whenCompleted === "return") return retriedCompletion(ctx, row);
  const merged = { ...row, ...changes } as TaskRow;
  const repeating = !row.completed && merged.repeat;
  const upcoming = repeating ? nextOccurrence({ ...merged, repeat: repeating }, ctx.timeZone, new Date()) : null;
  const next = upcoming
    ? insertTask(ctx, {
        ...repeatedColumns(merged),
        due: upcoming.due,
        reminder: upcoming.reminder ?? null,
        repeat: upcoming.repeat,
      })
    : undefined;
  const set: RowValues = { ...changes, ...(repeating ? { repeat: null } : {}), ...(next ? { nextId: next.id } : {}) };
  const updated = ctx.db.update(tasks).set(setClause(set)).where(eq(tasks.id, id)).returning().get()!;
  // Its open subtasks are done with it; the next occurrence gets them again, open (cascade.ts).
  const cascade = [...completeSubtasks(ctx.db, id), ...(next ? copySubtasks(ctx, id, next.id) : [])];
  const change: TaskChange = next ? { task: toTask(updated), next: toTask(next) } : { task: toTask(updated) };
  return cascade.length > 0 ? { ...change, cascade } : change;
}

/** A completed task again: with the next occurrence its completion created, while that still exists. */
function retriedCompletion({ db }: AccountContext, row: TaskRow): TaskChange {
  const next = row.nextId ? db.select().from(tasks).where(whereLive(row.nextId)).get() : undefined;
  return next ? { task: toTask(row), next: toTask(next) } : { task: toTask(row) };
}
