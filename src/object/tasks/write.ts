import { eq } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { tasks } from "../schema";
import type { AccountContext } from "../context";
import { completeWith } from "./complete";
import { versionsIn } from "../../domain/tasks/etag";
import { createTaskOnce } from "./idempotency";
import { insertTask, withResolvedList } from "./insert";
import { withResolvedLabels } from "../labels/names";
import { liveTask, type TaskChange } from "./live";
import { inputColumns, patchColumns, setClause, toTask } from "./row";
import type { Task, TaskInput, TaskPatch } from "../../domain/tasks/schemas";

export function getTask({ db }: AccountContext, { id }: { id: string }): Task {
  return toTask(liveTask(db, id));
}

export interface CreateTaskArgs {
  input: TaskInput;
  /** Idempotency-Key (REST) or clientRequestId (MCP): a retry with the same key and input replays the first result. */
  idempotencyKey?: string;
  /** The input's SHA-256, set by the object before the transaction when there is a key (idempotency.ts). */
  requestHash?: string;
}

/** Creates a task, and says whether the result is a replay of an earlier request with the same idempotency key. */
export function createTask(ctx: AccountContext, { input, idempotencyKey, requestHash }: CreateTaskArgs) {
  const values = inputColumns(input);
  if (idempotencyKey !== undefined) return createTaskOnce(ctx, values, idempotencyKey, requestHash);
  return { task: toTask(insertTask(ctx, values)), replayed: false };
}

export interface UpdateTaskArgs {
  id: string;
  patch: TaskPatch;
  /** An If-Match header value: the write happens only while the task still has one of these ETags. */
  ifMatch?: string;
}

/**
 * Applies a patch. `completed: true` goes through completion, which may create the next occurrence
 * of a repeating task (complete.ts). With `ifMatch`, a stale ETag is 412 and nothing changes.
 */
export function updateTask(ctx: AccountContext, { id, patch, ifMatch }: UpdateTaskArgs): TaskChange {
  const versions = versionsIn(ifMatch, id);
  const changes = withResolvedLabels(ctx, withResolvedList(ctx, patchColumns(patch)));
  if (changes.completed === true) return completeWith(ctx, id, changes, versions, "update");
  const current = liveTask(ctx.db, id, versions);
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(changes).length === 0) return { task: toTask(current) };
  const updated = ctx.db.update(tasks).set(setClause(changes)).where(eq(tasks.id, id)).returning().get();
  return { task: toTask(updated!) };
}

/** Deletes a task, leaving a tombstone so `since` syncs learn about it. With `ifMatch`, a stale ETag is 412. */
export function deleteTask(ctx: AccountContext, { id, ifMatch }: { id: string; ifMatch?: string }): null {
  liveTask(ctx.db, id, versionsIn(ifMatch, id));
  ctx.db
    .update(tasks)
    .set(setClause({ deletedAt: nowSql }))
    .where(eq(tasks.id, id))
    .run();
  return null;
}
