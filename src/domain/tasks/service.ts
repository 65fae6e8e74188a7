import { and, asc, eq, gt, gte, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { nowSql, tasks, type TaskRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { requireMax } from "../api-keys/service";
import { AppError } from "../errors";
import { newId } from "../ids";
import { decodeCursor, encodeCursor } from "./cursor";
import { toTask } from "./mapping";
import type { Task, TaskInput, TaskPatch } from "./schemas";

/** Every change strictly increases updatedAt, even two changes within one millisecond. */
const bumpedUpdatedAt = sql`max(${nowSql}, strftime('%Y-%m-%dT%H:%M:%fZ', ${tasks.updatedAt}, '+0.001 seconds'))`;

const notFound = () => new AppError("task_not_found", "No task with this id in your account.");

/** Live tasks of the actor's account: the one place isolation is enforced. */
const ownLiveTask = (ctx: ServiceContext, id: string) =>
  and(eq(tasks.id, id), eq(tasks.accountId, ctx.actor.accountId), isNull(tasks.deletedAt));

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

/** Lists live tasks ordered by (updatedAt, id); with `since`, also the tombstones since then. */
export async function listTasks(ctx: ServiceContext, query: ListTasksQuery): Promise<TaskPage> {
  requireMax(ctx.actor);
  const { db } = ctx;
  const since = query.since ? toUtc(query.since) : undefined;
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const filters: (SQL | undefined)[] = [eq(tasks.accountId, ctx.actor.accountId), isNull(tasks.deletedAt)];
  if (since) filters.push(gte(tasks.updatedAt, since));
  if (query.completed !== undefined) filters.push(eq(tasks.completed, query.completed));
  if (query.listId !== undefined) filters.push(eq(tasks.listId, query.listId));
  if (cursor) {
    filters.push(
      lte(tasks.updatedAt, cursor.serverTime),
      or(gt(tasks.updatedAt, cursor.updatedAt), and(eq(tasks.updatedAt, cursor.updatedAt), gt(tasks.id, cursor.id))),
    );
  }
  let page = db.select().from(tasks).where(and(...filters)).orderBy(asc(tasks.updatedAt), asc(tasks.id)).$dynamic();
  // One extra row tells whether another page follows.
  if (query.limit) page = page.limit(query.limit + 1);
  const clock = db.get<{ now: string }>(sql`SELECT ${nowSql} AS now`);
  const tombstones = db
    .select({ id: tasks.id, deletedAt: tasks.deletedAt })
    .from(tasks)
    .where(and(eq(tasks.accountId, ctx.actor.accountId), isNotNull(tasks.deletedAt), gte(tasks.deletedAt, since ?? "")))
    .orderBy(asc(tasks.deletedAt), asc(tasks.id));
  // Clock, page and tombstones in one round trip and one consistent snapshot.
  const [now, rows, deleted] = since && !cursor ? await db.batch([clock, page, tombstones]) : [...(await db.batch([clock, page])), undefined];
  const serverTime = cursor?.serverTime ?? now!.now;
  const more = query.limit !== undefined && rows.length > query.limit;
  const visible = more ? rows.slice(0, query.limit) : rows;
  const result: TaskPage = { tasks: visible.map(toTask), serverTime };
  if (since) result.deleted = (deleted ?? []).map((d) => ({ id: d.id, deletedAt: d.deletedAt! }));
  if (more) {
    const last = visible[visible.length - 1]!;
    result.nextCursor = encodeCursor({ updatedAt: last.updatedAt, id: last.id, serverTime });
  }
  return result;
}

export async function getTask(ctx: ServiceContext, id: string): Promise<Task> {
  requireMax(ctx.actor);
  const [row] = await ctx.db.select().from(tasks).where(ownLiveTask(ctx, id));
  if (!row) throw notFound();
  return toTask(row);
}

export async function createTask(ctx: ServiceContext, input: TaskInput): Promise<Task> {
  requireMax(ctx.actor);
  const [row] = await ctx.db
    .insert(tasks)
    .values({
      id: newId(),
      accountId: ctx.actor.accountId,
      title: input.title,
      notes: input.notes || null,
      listId: input.listId ?? null,
      due: input.due ?? null,
      reminder: input.reminder ?? null,
      repeat: input.repeat ?? null,
      important: input.important ?? false,
    })
    .returning();
  return toTask(row!);
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

export async function updateTask(ctx: ServiceContext, id: string, patch: TaskPatch): Promise<TaskChange> {
  requireMax(ctx.actor);
  const set = patchColumns(patch);
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(set).length === 0) return { task: await getTask(ctx, id) };
  const [row] = await ctx.db
    .update(tasks)
    .set({ ...set, updatedAt: bumpedUpdatedAt })
    .where(ownLiveTask(ctx, id))
    .returning();
  if (!row) throw notFound();
  return { task: toTask(row) };
}

/** Marks a task done. Completing a completed task returns it unchanged (idempotent). */
export async function completeTask(ctx: ServiceContext, id: string): Promise<TaskChange> {
  requireMax(ctx.actor);
  const { db } = ctx;
  const [, [row]] = await db.batch([
    db
      .update(tasks)
      .set({ completed: true, updatedAt: bumpedUpdatedAt })
      .where(and(ownLiveTask(ctx, id), eq(tasks.completed, false))),
    db.select().from(tasks).where(ownLiveTask(ctx, id)),
  ]);
  if (!row) throw notFound();
  return { task: toTask(row) };
}

/** Deletes a task, leaving a tombstone so `since` syncs learn about it. */
export async function deleteTask(ctx: ServiceContext, id: string): Promise<void> {
  requireMax(ctx.actor);
  const deleted = await ctx.db
    .update(tasks)
    .set({ deletedAt: nowSql, updatedAt: bumpedUpdatedAt })
    .where(ownLiveTask(ctx, id))
    .returning({ id: tasks.id });
  if (deleted.length === 0) throw notFound();
}
