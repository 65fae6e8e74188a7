import { eq, inArray } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { tasks } from "../schema";
import type { AccountContext } from "../context";
import { completeWith } from "./complete";
import { versionsIn } from "../../domain/tasks/etag";
import { hasList, listCreated } from "../lists/names";
import { withResolvedList } from "./insert";
import { withResolvedLabels } from "../labels/names";
import { type Cascaded, liveTask, type TaskChange } from "./live";
import { placement } from "./place";
import { withPriority } from "./priority";
import { patchColumns, setClause, taskJsonSql, toTask } from "./row";
import { moveSubtasks, reopenParents, deleteSubtasks } from "./cascade";
import { descendantsOf } from "./tree";
import type { Task, TaskMove, TaskPatch, TaskTree } from "../../domain/tasks/schemas";

export { createTask, type CreateTaskArgs } from "./create";

/**
 * A task as listings show it (with `subtaskCounts`); with `subtasks`, its subtasks at every level, in order.
 */
export function getTask({ db }: AccountContext, { id, subtasks }: { id: string; subtasks?: boolean }): TaskTree {
  liveTask(db, id);
  const below = subtasks ? descendantsOf(db, id) : [];
  const rows = db
    .select({ id: tasks.id, json: sql<string>`${taskJsonSql}` })
    .from(tasks)
    .where(inArray(tasks.id, [id, ...below.map((row) => row.id)]))
    .all();
  const nodes = new Map(rows.map((row) => [row.id, JSON.parse(row.json) as TaskTree]));
  // Parents come before their subtasks, siblings by position (descendantsOf).
  for (const row of below) {
    const parent = nodes.get(row.parentId!)!;
    parent.subtasks = [...(parent.subtasks ?? []), nodes.get(row.id)!];
  }
  const task = nodes.get(id)!;
  if (subtasks && !task.subtasks) task.subtasks = [];
  return task;
}

export interface UpdateTaskArgs {
  id: string;
  patch: TaskPatch;
  /** An If-Match header value: the write happens only while the task still has one of these ETags. */
  ifMatch?: string;
}

/**
 * Applies a patch. `completed: true` goes through completion, which may create the next occurrence
 * of a repeating task (complete.ts). A list, a parent, `before` or `after` place the task (place.ts);
 * its subtasks follow it to another list, and an open task reopens its completed parents (cascade.ts).
 * With `ifMatch`, a stale ETag is 412 and nothing changes.
 */
export function updateTask(ctx: AccountContext, { id, patch, ifMatch }: UpdateTaskArgs): TaskChange {
  const { db } = ctx;
  const versions = versionsIn(ifMatch, id);
  const { before, after, ...fields } = patch;
  const current = liveTask(db, id, versions);
  const { listId, parentId, ...changes } = withPriority(
    withResolvedLabels(ctx, withResolvedList(ctx, patchColumns(fields))),
    current.priority,
  );
  const placed = placement(db, current, { listId, parentId, before, after } as Parameters<typeof placement>[2]);
  const newList = typeof placed.listId === "string" && !hasList(db, placed.listId);
  const all = { ...changes, ...placed };
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(all).length === 0) return { task: toTask(current) };
  const change: TaskChange =
    all.completed === true
      ? completeWith(ctx, id, all, versions, "update")
      : { task: toTask(db.update(tasks).set(setClause(all)).where(eq(tasks.id, id)).returning().get()!) };
  const cascade: Cascaded[] = [...(change.cascade ?? [])];
  if ("listId" in placed) cascade.push(...moveSubtasks(db, id, change.task.listId ?? null));
  if (all.completed === false || "parentId" in placed)
    cascade.push(...reopenParents(db, { parentId: change.task.parentId ?? null, completed: change.task.completed }));
  return {
    ...change,
    ...(cascade.length > 0 ? { cascade } : {}),
    ...(newList ? { notice: { listCreated: listCreated(db, placed.listId as string) } } : {}),
  };
}

/** POST /tasks/{id}/move: the placement rule of an update, alone (place.ts). */
export function moveTask(ctx: AccountContext, { id, move }: { id: string; move: TaskMove }): TaskChange {
  return updateTask(ctx, { id, patch: move });
}

/**
 * Deletes a task and its subtasks, each leaving a tombstone so `since` syncs learn about it. With
 * `ifMatch`, a stale ETag is 412 and nothing is deleted.
 */
export function deleteTask(ctx: AccountContext, { id, ifMatch }: { id: string; ifMatch?: string }): null {
  liveTask(ctx.db, id, versionsIn(ifMatch, id));
  deleteSubtasks(ctx.db, id, nowSql);
  ctx.db
    .update(tasks)
    .set(setClause({ deletedAt: nowSql }))
    .where(eq(tasks.id, id))
    .run();
  return null;
}

export type { Task };
