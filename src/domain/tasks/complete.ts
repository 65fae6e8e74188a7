import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { tasks, type TaskRow } from "../../db/schema";
import { AppError } from "../errors";
import { newId } from "../ids";
import { matchesVersions, versionsIn, type Versions } from "./etag";
import { nextOccurrence } from "./recurrence";
import { boundColumns, newTaskRow, repeatedColumns, type RowValues, setClause, toTask } from "./row";
import { type Caller, type CallerScope, taskStatement, type Outcome, runBehindLookup, runJudged } from "./statements";
import {
  type GuardedValues,
  guardOf,
  notFound,
  ownLiveTask,
  readTask,
  stale,
  type TaskChange,
  versionCondition,
  versionValues,
  type WriteOptions,
} from "./write";

/**
 * Completion, and the next occurrence of a repeating task. Completing a completed task returns it
 * unchanged (idempotent); a repeating task gets its next occurrence, returned as `next`.
 */
export async function completeTaskAs(
  caller: Caller,
  id: string,
  options: WriteOptions = {},
): Promise<Outcome<TaskChange>> {
  const versions = versionsIn(options.ifMatch, id);
  return completeAs(caller, id, { completed: true }, versions, false);
}

/** When a completion cannot create a next occurrence, so that one UPDATE may do it (see completeAs). */
type Shortcut = "clears-repeat" | "rewrite" | "first";
const shortcutCondition: Record<Shortcut, SQL | undefined> = {
  // A patch that clears `repeat` never starts an occurrence.
  "clears-repeat": undefined,
  // A PATCH to a completed task rewrites it; an open one must not repeat.
  rewrite: or(eq(tasks.completed, true), isNull(tasks.repeat)),
  first: and(eq(tasks.completed, false), isNull(tasks.repeat)),
};

const completeWithoutOccurrence = taskStatement(
  (scope: CallerScope<GuardedValues>, [columns, guard, shortcut]: [string[], number, Shortcut]) =>
    scope.db
      .update(tasks)
      .set(setClause(boundColumns(scope.values, columns)))
      .where(
        and(
          ownLiveTask(scope.account, scope.values.id),
          shortcutCondition[shortcut],
          versionCondition(scope.values, guard),
        ),
      )
      .returning(),
);

/**
 * Completion in as few round trips as the task allows. One batch holds the key lookup, the
 * completion itself guarded so that it runs only when it cannot create a next occurrence (the task
 * does not repeat, or it is already completed and a PATCH rewrites it), and a read of the task. A
 * task that does not repeat is done in that one round trip; otherwise completeRow goes on from the
 * row the batch read (a repeating task: two round trips in all).
 */
export async function completeAs(
  caller: Caller,
  id: string,
  changes: RowValues,
  versions: Versions | undefined,
  rewriteCompleted: boolean,
): Promise<Outcome<TaskChange>> {
  // A patch that sets `repeat` may start a series: its completion always takes completeRow's path.
  const shortcut: Shortcut | undefined =
    changes.repeat === null
      ? "clears-repeat"
      : changes.repeat !== undefined
        ? undefined
        : rewriteCompleted
          ? "rewrite"
          : "first";
  const columns = Object.keys(changes).sort();
  const { auth, results } = await runBehindLookup(caller, [
    ...(shortcut
      ? [
          completeWithoutOccurrence(caller, [columns, guardOf(versions), shortcut], {
            ...changes,
            ...versionValues(versions),
            id,
          }),
        ]
      : []),
    readTask(caller, null, { id }),
  ]);
  const [updated] = (shortcut ? results[0] : []) as TaskRow[];
  if (updated) return { value: { task: toTask(updated) }, auth };
  const [current] = results[results.length - 1] as TaskRow[];
  if (!current) throw notFound();
  const timeZone = auth.actor.timeZone;
  return { value: await completeRow(caller, timeZone, id, changes, versions, rewriteCompleted, current), auth };
}

/** The values of a write guarded by the `updatedAt` it read: `seen`. */
type SeenValues = RowValues & { id: string; seen: string };
const whileUnchanged = (scope: CallerScope<SeenValues>) =>
  and(ownLiveTask(scope.account, scope.values.id), eq(tasks.updatedAt, scope.values.seen));

const completeSeen = taskStatement((scope: CallerScope<SeenValues>, columns: string[]) =>
  scope.db
    .update(tasks)
    .set(setClause(boundColumns(scope.values, columns)))
    .where(whileUnchanged(scope))
    .returning(),
);

/** The next occurrence, inserted only while the task it follows is unchanged (the same guard as completeSeen). */
const insertOccurrence = taskStatement((scope: CallerScope<SeenValues & { nextId: string }>, columns: string[]) =>
  scope.db
    .insert(tasks)
    .select(
      newTaskRow(
        scope,
        columns,
        scope.values.nextId,
        sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${whileUnchanged(scope)})`,
      ),
    )
    .returning(),
);

const MAX_ATTEMPTS = 3;

/**
 * Completing a completed task changes nothing; when its completion created a next occurrence that
 * still exists, the retry returns it again, so a client that lost the first answer still learns it.
 */
async function retriedCompletion(caller: Caller, row: TaskRow): Promise<TaskChange> {
  if (!row.nextId) return { task: toTask(row) };
  const [[next]] = (await runJudged(caller, [readTask(caller, null, { id: row.nextId })])) as [TaskRow[]];
  return next ? { task: toTask(row), next: toTask(next) } : { task: toTask(row) };
}

/**
 * Completion, in one atomic batch guarded by the `updatedAt` that was read: the next occurrence
 * (if the task repeats and its rule is not exhausted) is inserted and the task is marked completed
 * with its `repeat` cleared, so reopening and completing it again cannot spawn a second one.
 * If the task changed between read and write, nothing is written and the read is retried.
 */
async function completeRow(
  caller: Caller,
  timeZone: string,
  id: string,
  changes: RowValues,
  versions: Versions | undefined,
  rewriteCompleted: boolean,
  /** The task as the verb's first batch just read it: the first attempt starts from it. */
  current: TaskRow,
): Promise<TaskChange> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row =
      attempt === 0 ? current : ((await runJudged(caller, [readTask(caller, null, { id })]))[0] as TaskRow[])[0];
    if (!row) throw notFound();
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    if (row.completed && !rewriteCompleted) return retriedCompletion(caller, row);
    const merged = { ...row, ...changes } as TaskRow;
    const repeating = !row.completed && merged.repeat;
    const upcoming = repeating ? nextOccurrence({ ...merged, repeat: repeating }, timeZone, new Date()) : null;
    const nextId = newId();
    const set: RowValues = { ...changes, ...(repeating ? { repeat: null } : {}), ...(upcoming ? { nextId } : {}) };
    const update = completeSeen(caller, Object.keys(set).sort(), { ...set, id, seen: row.updatedAt });
    if (!upcoming) {
      const [[updated]] = (await runJudged(caller, [update])) as [TaskRow[]];
      if (updated) return { task: toTask(updated) };
      if (versions) throw stale();
      continue;
    }
    const occurrence: RowValues = {
      ...repeatedColumns(merged),
      due: upcoming.due,
      reminder: upcoming.reminder ?? null,
      repeat: upcoming.repeat,
    };
    // The insert comes first and is guarded by the same condition, so both see the same row.
    const [[next], [updated]] = (await runJudged(caller, [
      insertOccurrence(caller, Object.keys(occurrence), { ...occurrence, nextId, id, seen: row.updatedAt }),
      update,
    ])) as [TaskRow[], TaskRow[]];
    if (updated) return next ? { task: toTask(updated), next: toTask(next) } : { task: toTask(updated) };
    if (versions) throw stale();
  }
  throw new AppError("unavailable", "The task kept changing while it was being completed. Retry.", undefined, 1);
}
