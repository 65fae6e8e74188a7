import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { nowSql, tasks, type TaskRow } from "../../db/schema";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { ServiceContext } from "../context";
import { type KeyAuthentication, keyAccountSql, keyActorQuery, requireMax, toKeyAuthentication } from "../api-keys/service";
import { AppError } from "../errors";
import { newId } from "../ids";
import { TOMBSTONE_DAYS, TOMBSTONE_MS } from "../retention";
import { decodeCursor, encodeCursor } from "./cursor";
import { matchesVersions, versionsIn, type Versions } from "./etag";
import { createTaskOnce } from "./idempotency";
import { toTask } from "./mapping";
import { nextOccurrence } from "./recurrence";
import type { Task, TaskInput, TaskPatch } from "./schemas";

/** Every change strictly increases updatedAt, even two changes within one millisecond. */
const bumpedUpdatedAt = sql`max(${nowSql}, strftime('%Y-%m-%dT%H:%M:%fZ', ${tasks.updatedAt}, '+0.001 seconds'))`;

const notFound = () => new AppError("task_not_found", "No task with this id in your account.");
const stale = () =>
  new AppError("precondition_failed", "The task changed since you read it (If-Match does not match its ETag). Get it again, then retry.");

/** Live tasks of the actor's account: the one place isolation is enforced. */
const ownLiveTask = (ctx: ServiceContext, id: string) =>
  and(eq(tasks.id, id), eq(tasks.accountId, ctx.actor.accountId), isNull(tasks.deletedAt));

/** The If-Match condition as SQL, evaluated inside the write so check and write are one step. */
const versionCondition = (versions: Versions | undefined) =>
  versions === undefined || versions === "*" ? undefined : versions.length ? inArray(tasks.updatedAt, versions) : sql`0`;

/** Options of the writing verbs. Surfaces without preconditions (MCP) leave them out. */
export interface WriteOptions {
  /** An If-Match header value: the write happens only while the task still has one of these ETags. */
  ifMatch?: string;
}

export interface CreateOptions {
  /** Idempotency-Key (REST) or clientRequestId (MCP): a retry with the same key and input replays the first result. */
  idempotencyKey?: string;
}

export interface ListTasksQuery {
  since?: string;
  completed?: boolean;
  listId?: string;
  limit?: number;
  cursor?: string;
}

export interface TaskPage {
  tasks: Task[];
  serverTime: string;
  deleted?: { id: string; deletedAt: string }[];
  nextCursor?: string;
}

const toUtc = (instant: string) => new Date(instant).toISOString();

/** A listing's statements for one D1 batch, and how to read their results. */
interface ListingPlan {
  statements: BatchItem<"sqlite">[];
  finish(results: unknown[]): TaskPage;
  /** A problem with the query, raised only once the caller is known to be allowed to list. */
  problem?: AppError;
}

/**
 * Lists live tasks; with `since`, only tasks changed at or after it, plus the tombstones since then.
 * One response (no `limit`) is ordered by (updatedAt, id). Pages (`limit`) walk by id instead:
 * edits move a task in (updatedAt, id) order, so a task edited between pages would be skipped or
 * sent twice, while its id never changes. Every page reports the first page's serverTime, so
 * whatever changed after the listing began also reaches the client on its next `since` sync.
 * `account` is the account id, or a SQL subquery that yields it (see listTasksForKey).
 */
function planListing(db: Db, account: string | SQL, query: ListTasksQuery): ListingPlan {
  const since = query.since ? toUtc(query.since) : undefined;
  let problem: AppError | undefined;
  let cursor: ReturnType<typeof decodeCursor> | undefined;
  if (since && Date.parse(since) < Date.now() - TOMBSTONE_MS) {
    problem = new AppError(
      "sync_expired",
      `\`since\` is older than ${TOMBSTONE_DAYS} days, so deletions before it are forgotten. Drop your local copy and list again without \`since\`.`,
    );
  }
  try {
    cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  } catch (e) {
    problem ??= e as AppError;
  }
  const filters: (SQL | undefined)[] = [eq(tasks.accountId, account), isNull(tasks.deletedAt)];
  if (since) filters.push(gte(tasks.updatedAt, since));
  if (query.completed !== undefined) filters.push(eq(tasks.completed, query.completed));
  if (query.listId !== undefined) filters.push(eq(tasks.listId, query.listId));
  if (cursor) filters.push(gt(tasks.id, cursor.id));
  const order = query.limit !== undefined || cursor ? [asc(tasks.id)] : [asc(tasks.updatedAt), asc(tasks.id)];
  let page = db.select().from(tasks).where(and(...filters)).orderBy(...order).$dynamic();
  // One extra row tells whether another page follows.
  if (query.limit) page = page.limit(query.limit + 1);
  const clock = db.get<{ now: string }>(sql`SELECT ${nowSql} AS now`);
  const withTombstones = since !== undefined && !cursor;
  const tombstones = db
    .select({ id: tasks.id, deletedAt: tasks.deletedAt })
    .from(tasks)
    .where(and(eq(tasks.accountId, account), isNotNull(tasks.deletedAt), gte(tasks.deletedAt, since ?? "")))
    .orderBy(asc(tasks.deletedAt), asc(tasks.id));
  return {
    problem,
    // Clock, page and tombstones in one round trip and one consistent snapshot.
    statements: withTombstones ? [clock, page, tombstones] : [clock, page],
    finish(results) {
      const [now, rows, deleted] = results as [{ now: string }, TaskRow[], { id: string; deletedAt: string | null }[] | undefined];
      const serverTime = cursor?.serverTime ?? now.now;
      const more = query.limit !== undefined && rows.length > query.limit;
      const visible = more ? rows.slice(0, query.limit) : rows;
      const result: TaskPage = { tasks: visible.map(toTask), serverTime };
      if (since) result.deleted = (deleted ?? []).map((d) => ({ id: d.id, deletedAt: d.deletedAt! }));
      if (more) result.nextCursor = encodeCursor({ id: visible[visible.length - 1]!.id, serverTime });
      return result;
    },
  };
}

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

export async function listTasks(ctx: ServiceContext, query: ListTasksQuery): Promise<TaskPage> {
  requireMax(ctx.actor);
  const plan = planListing(ctx.db, ctx.actor.accountId, query);
  if (plan.problem) throw plan.problem;
  return plan.finish(await ctx.db.batch(plan.statements as Batch));
}

/**
 * listTasks for an API key not yet looked up: the key check (key, account, membership) and the
 * listing run in ONE D1 round trip. The listing is scoped by the key's own subquery, and nothing
 * is returned unless the key turns out live and the membership active.
 */
export async function listTasksForKey(
  db: Db,
  keyHash: string,
  query: ListTasksQuery,
): Promise<{ auth: KeyAuthentication; page: TaskPage }> {
  const plan = planListing(db, keyAccountSql(keyHash), query);
  const [actorRow, ...results] = await db.batch([keyActorQuery(db, keyHash), ...plan.statements]);
  const auth = toKeyAuthentication(db, actorRow);
  requireMax(auth.actor);
  if (plan.problem) throw plan.problem;
  return { auth, page: plan.finish(results) };
}

export async function getTask(ctx: ServiceContext, id: string): Promise<Task> {
  requireMax(ctx.actor);
  return toTask(await readTask(ctx, id));
}

async function readTask(ctx: ServiceContext, id: string): Promise<TaskRow> {
  const [row] = await ctx.db.select().from(tasks).where(ownLiveTask(ctx, id));
  if (!row) throw notFound();
  return row;
}

/** Column values of a new task. */
export const newTaskValues = (ctx: ServiceContext, input: TaskInput, id = newId()) => ({
  id,
  accountId: ctx.actor.accountId,
  title: input.title,
  notes: input.notes || null,
  listId: input.listId ?? null,
  due: input.due ?? null,
  reminder: input.reminder ?? null,
  repeat: input.repeat ?? null,
  important: input.important ?? false,
});

export async function createTask(ctx: ServiceContext, input: TaskInput, options: CreateOptions = {}): Promise<Task> {
  return (await createTaskResult(ctx, input, options)).task;
}

/** createTask that also says whether the result is a replay of an earlier request with the same key. */
export async function createTaskResult(
  ctx: ServiceContext,
  input: TaskInput,
  options: CreateOptions = {},
): Promise<{ task: Task; replayed: boolean }> {
  requireMax(ctx.actor);
  if (options.idempotencyKey !== undefined) return createTaskOnce(ctx, newTaskValues(ctx, input), input, options.idempotencyKey);
  const [row] = await ctx.db.insert(tasks).values(newTaskValues(ctx, input)).returning();
  return { task: toTask(row!), replayed: false };
}

/** Maps a patch to column updates: "" clears a text field, null clears the reminder. */
function patchColumns(patch: TaskPatch): Partial<TaskRow> {
  const set: Partial<TaskRow> = {};
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.completed !== undefined) set.completed = patch.completed;
  if (patch.important !== undefined) set.important = patch.important;
  if (patch.listId !== undefined) set.listId = patch.listId || null;
  if (patch.due !== undefined) set.due = patch.due || null;
  if (patch.reminder !== undefined) set.reminder = patch.reminder;
  if (patch.repeat !== undefined) set.repeat = patch.repeat || null;
  if (patch.notes !== undefined) set.notes = patch.notes || null;
  return set;
}

/** A changed task, and the next occurrence its completion created (repeating tasks). */
export interface TaskChange {
  task: Task;
  next?: Task;
}

/**
 * Applies a patch. `completed: true` on an open repeating task also creates the next occurrence
 * (see completeRow). With `ifMatch`, a stale ETag is 412 and nothing changes.
 */
export async function updateTask(ctx: ServiceContext, id: string, patch: TaskPatch, options: WriteOptions = {}): Promise<TaskChange> {
  requireMax(ctx.actor);
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  const set = patchColumns(patch);
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(set).length === 0) {
    const row = await readTask(ctx, id);
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    return { task: toTask(row) };
  }
  if (set.completed === true) return completeRow(ctx, id, set, versions, true);
  const { db } = ctx;
  const [[updated], [current]] = await db.batch([
    db
      .update(tasks)
      .set({ ...set, updatedAt: bumpedUpdatedAt })
      .where(and(ownLiveTask(ctx, id), versionCondition(versions)))
      .returning(),
    db.select({ id: tasks.id }).from(tasks).where(ownLiveTask(ctx, id)),
  ]);
  if (updated) return { task: toTask(updated) };
  throw current ? stale() : notFound();
}

/**
 * Marks a task done. Completing a completed task returns it unchanged (idempotent).
 * A repeating task gets its next occurrence, returned as `next`.
 */
export async function completeTask(ctx: ServiceContext, id: string, options: WriteOptions = {}): Promise<TaskChange> {
  requireMax(ctx.actor);
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  return completeRow(ctx, id, { completed: true }, versions, false);
}

const MAX_ATTEMPTS = 3;

/**
 * Completion, in one atomic batch guarded by the `updatedAt` that was read: the next occurrence
 * (if the task repeats and its rule is not exhausted) is inserted and the task is marked completed
 * with its `repeat` cleared, so reopening and completing it again cannot spawn a second one.
 * If the task changed between read and write, nothing is written and the read is retried.
 */
async function completeRow(
  ctx: ServiceContext,
  id: string,
  set: Partial<TaskRow>,
  versions: Versions | undefined,
  rewriteCompleted: boolean,
): Promise<TaskChange> {
  const { db } = ctx;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await readTask(ctx, id);
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    if (row.completed && !rewriteCompleted) return { task: toTask(row) };
    const merged = { ...row, ...set };
    const repeating = !row.completed && merged.repeat;
    const upcoming = repeating ? nextOccurrence({ ...merged, repeat: repeating }, ctx.actor.timeZone, new Date()) : null;
    const guard = and(ownLiveTask(ctx, id), eq(tasks.updatedAt, row.updatedAt));
    const nextId = newId();
    const update = db
      .update(tasks)
      .set({ ...set, ...(repeating ? { repeat: null } : {}), updatedAt: bumpedUpdatedAt })
      .where(guard)
      .returning();
    if (!upcoming) {
      const [updated] = await update;
      if (updated) return { task: toTask(updated) };
      if (versions) throw stale();
      continue;
    }
    // The insert comes first and is guarded by the same condition, so both see the same row.
    const [[next], [updated]] = await db.batch([
      db
        .insert(tasks)
        .select(
          sql`SELECT ${nextId}, ${ctx.actor.accountId}, ${merged.title}, ${merged.notes}, ${merged.listId}, ${upcoming.due},
                     ${upcoming.reminder ?? null}, ${upcoming.repeat}, ${merged.important ? 1 : 0}, 0, ${nowSql}, ${nowSql}, NULL
              WHERE EXISTS (SELECT 1 FROM ${tasks} WHERE ${guard})`,
        )
        .returning(),
      update,
    ]);
    if (updated) return next ? { task: toTask(updated), next: toTask(next) } : { task: toTask(updated) };
    if (versions) throw stale();
  }
  throw new AppError("unavailable", "The task kept changing while it was being completed. Retry.", undefined, 1);
}

/** Deletes a task, leaving a tombstone so `since` syncs learn about it. With `ifMatch`, a stale ETag is 412. */
export async function deleteTask(ctx: ServiceContext, id: string, options: WriteOptions = {}): Promise<void> {
  requireMax(ctx.actor);
  const { db } = ctx;
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  const [deleted, [current]] = await db.batch([
    db
      .update(tasks)
      .set({ deletedAt: nowSql, updatedAt: bumpedUpdatedAt })
      .where(and(ownLiveTask(ctx, id), versionCondition(versions)))
      .returning({ id: tasks.id }),
    db.select({ id: tasks.id }).from(tasks).where(ownLiveTask(ctx, id)),
  ]);
  if (deleted.length === 0) throw current ? stale() : notFound();
}
