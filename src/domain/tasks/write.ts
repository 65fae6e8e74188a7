import { and, eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { nowSql } from "../../db/clock";
import { tasks, type TaskRow } from "../../db/schema";
import { AppError } from "../errors";
import { newId } from "../ids";
import { completeAs } from "./complete";
import { matchesVersions, versionsIn, type Versions } from "./etag";
import { createTaskOnce } from "./idempotency";
import { boundColumns, inputColumns, newTaskRow, patchColumns, type RowValues, setClause, toTask } from "./row";
import type { Task, TaskInput, TaskPatch } from "./schemas";
import { type Caller, type CallerScope, taskStatement, type Outcome, runWithVerdictRows } from "./statements";

export const notFound = () => new AppError("task_not_found", "No task with this id in your account.");
export const stale = () =>
  new AppError(
    "precondition_failed",
    "The task changed since you read it (If-Match does not match its ETag). Get it again, then retry.",
  );

/** A live task of one account: the one place isolation is enforced. */
export const ownLiveTask = (account: SQL, id: unknown) =>
  and(eq(tasks.id, id as string), eq(tasks.accountId, account), isNull(tasks.deletedAt));

/** A task's columns, and the key's verdict in each row. */
export const withVerdict = (scope: Pick<CallerScope<object>, "verdict">) => ({
  ...getTableColumns(tasks),
  verdict: scope.verdict,
});

/** Options of the writing verbs. Surfaces without preconditions (MCP) leave them out. */
export interface WriteOptions {
  /** An If-Match header value: the write happens only while the task still has one of these ETags. */
  ifMatch?: string;
}

export interface CreateOptions {
  /** Idempotency-Key (REST) or clientRequestId (MCP): a retry with the same key and input replays the first result. */
  idempotencyKey?: string;
}

/** A changed task, and the next occurrence its completion created (repeating tasks). */
export interface TaskChange {
  task: Task;
  next?: Task;
}

export const readTask = taskStatement((scope: CallerScope<{ id: string }>) =>
  scope.db.select(withVerdict(scope)).from(tasks).where(ownLiveTask(scope.account, scope.values.id)),
);

export async function getTaskAs(caller: Caller, id: string): Promise<Outcome<Task>> {
  const { auth, results } = await runWithVerdictRows(caller, [readTask(caller, null, { id })]);
  const [row] = results[0] as TaskRow[];
  if (!row) throw notFound();
  return { value: toTask(row), auth };
}

/**
 * Inserts a task for the caller's account (newTaskRow: nothing for a refused key); the inserted row
 * carries the verdict. `columns` is the shape: the names of the input fields bound, in a fixed order.
 */
const insertTask = taskStatement((scope: CallerScope<RowValues & { id: string }>, columns: string[]) =>
  scope.db
    .insert(tasks)
    .select(newTaskRow(scope, columns, scope.values.id))
    .returning(withVerdict(scope)),
);

/**
 * Creates a task, and says whether the result is a replay of an earlier request with the same
 * idempotency key. Without a key, the insert is one statement scoped by the key's account, so the
 * lookup and the insert share one round trip; with one, createTaskOnce's batch carries the lookup.
 */
export async function createTaskAs(
  caller: Caller,
  input: TaskInput,
  options: CreateOptions = {},
): Promise<Outcome<{ task: Task; replayed: boolean }>> {
  const values = { ...inputColumns(input), id: newId() };
  if (options.idempotencyKey !== undefined) return createTaskOnce(caller, values, input, options.idempotencyKey);
  const { auth, results } = await runWithVerdictRows(caller, [insertTask(caller, Object.keys(values), values)]);
  const [row] = results[0] as TaskRow[];
  return { value: { task: toTask(row!), replayed: false }, auth };
}

/**
 * If-Match as a statement's shape and values: -1 for none (or `*`), else how many versions, bound as
 * v0, v1, …. No version at all (only weak or another task's tags) matches nothing: 412.
 */
export const guardOf = (versions: Versions | undefined) => (Array.isArray(versions) ? versions.length : -1);
export const versionValues = (versions: Versions | undefined): Record<string, string> =>
  Object.fromEntries((Array.isArray(versions) ? versions : []).map((version, i) => [`v${i}`, version]));

/** The If-Match condition, evaluated inside the write so check and write are one step. */
export const versionCondition = (values: Record<string, unknown>, guard: number) =>
  guard < 0
    ? undefined
    : guard === 0
      ? sql`0`
      : inArray(
          tasks.updatedAt,
          Array.from({ length: guard }, (_, i) => values[`v${i}`] as string),
        );

/** A guarded write's values: the task, its columns, and the If-Match versions (versionValues). */
export type GuardedValues = RowValues & { id: string; [version: `v${number}`]: string };
/** The write's shape: the columns it sets, and its If-Match guard (guardOf). */
type WriteShape = [columns: string[], guard: number];

const updateTask = taskStatement((scope: CallerScope<GuardedValues>, [columns, guard]: WriteShape) =>
  scope.db
    .update(tasks)
    .set(setClause(boundColumns(scope.values, columns)))
    .where(and(ownLiveTask(scope.account, scope.values.id), versionCondition(scope.values, guard)))
    .returning(withVerdict(scope)),
);

/** Whether the task exists: when a guarded write changed nothing, it tells 412 from 404. */
const taskExists = taskStatement((scope: CallerScope<{ id: string }>) =>
  scope.db.select({ id: tasks.id }).from(tasks).where(ownLiveTask(scope.account, scope.values.id)),
);

/**
 * Applies a patch. `completed: true` goes through completion, which may create the next occurrence
 * of a repeating task (complete.ts). With `ifMatch`, a stale ETag is 412 and nothing changes.
 */
export async function updateTaskAs(
  caller: Caller,
  id: string,
  patch: TaskPatch,
  options: WriteOptions = {},
): Promise<Outcome<TaskChange>> {
  const versions = versionsIn(options.ifMatch, id);
  const changes = patchColumns(patch);
  if (changes.completed === true) return completeAs(caller, id, changes, versions, true);
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(changes).length === 0) {
    const { auth, results } = await runWithVerdictRows(caller, [readTask(caller, null, { id })]);
    const [row] = results[0] as TaskRow[];
    if (!row) throw notFound();
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    return { value: { task: toTask(row) }, auth };
  }
  const guard = guardOf(versions);
  const values = { ...changes, ...versionValues(versions), id };
  // The updated row carries the verdict. When nothing was updated, the lookup tells 401/403 from 404,
  // and only a guarded update needs the task's existence to tell 412 from 404.
  const { auth, results } = await runWithVerdictRows(caller, [
    updateTask(caller, [Object.keys(changes).sort(), guard], values),
    ...(guard < 0 ? [] : [taskExists(caller, null, { id })]),
  ]);
  const [[updated], [current] = []] = results as [TaskRow[], { id: string }[]?];
  if (updated) return { value: { task: toTask(updated) }, auth };
  throw current ? stale() : notFound();
}

const deleteTask = taskStatement((scope: CallerScope<GuardedValues>, guard: number) =>
  scope.db
    .update(tasks)
    .set(setClause({ deletedAt: nowSql }))
    .where(and(ownLiveTask(scope.account, scope.values.id), versionCondition(scope.values, guard)))
    .returning({ id: tasks.id, verdict: scope.verdict }),
);

/** Deletes a task, leaving a tombstone so `since` syncs learn about it. With `ifMatch`, a stale ETag is 412. */
export async function deleteTaskAs(caller: Caller, id: string, options: WriteOptions = {}): Promise<Outcome<void>> {
  const versions = versionsIn(options.ifMatch, id);
  const guard = guardOf(versions);
  const { auth, results } = await runWithVerdictRows(caller, [
    deleteTask(caller, guard, { ...versionValues(versions), id }),
    ...(guard < 0 ? [] : [taskExists(caller, null, { id })]),
  ]);
  const [deleted, [current] = []] = results as [{ id: string }[], { id: string }[]?];
  if (deleted.length === 0) throw current ? stale() : notFound();
  return { value: undefined, auth };
}
