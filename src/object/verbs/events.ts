import { eq, isNull } from "drizzle-orm";
import type { AccountContext, AccountDb } from "../context";
import { toList } from "../lists/service";
import type { Cascaded, TaskChange } from "../tasks/live";
import type { Task } from "../../domain/tasks/schemas";
import type { Event } from "../webhooks/outbox";
import { lists, tasks } from "../schema";
import { none, type Raised, type Verb } from "./verb";

/**
 * Running a verb with its events, and the looks before and readings after that several task and list
 * verbs share. Each verb's own rule is in its file (src/object/verbs/<verb>.ts). Every surface (REST,
 * MCP by key or OAuth, the account page) runs the same verbs, so all raise the same events.
 */

export const nothing: Raised<never> = { events: [], tasks: [] };

/** The task as it was: an update that changed nothing raises nothing. */
export interface TaskBefore {
  updatedAt?: string;
  completed?: boolean;
}
export const taskBefore = (db: AccountDb, id: string): TaskBefore =>
  db.select({ updatedAt: tasks.updatedAt, completed: tasks.completed }).from(tasks).where(eq(tasks.id, id)).get() ?? {};

/** The live lists, when the write names one: a task may create its list (migration 0001's triggers). */
export interface ListsBefore {
  listIds?: Set<string>;
}
export const listsBefore = (db: AccountDb, listId: string | undefined | null): ListsBefore =>
  listId
    ? {
        listIds: new Set(
          db
            .select({ id: lists.id })
            .from(lists)
            .where(isNull(lists.deletedAt))
            .all()
            .map((l) => l.id),
        ),
      }
    : {};

/** list.created for a list a task's `listId` brought into being. */
export function createdLists(db: AccountDb, before: ListsBefore, ...written: (Task | undefined)[]) {
  const known = before.listIds;
  if (!known) return [];
  const ids = new Set(written.map((t) => t?.listId).filter((id): id is string => !!id && !known.has(id)));
  return [...ids].flatMap((id): Event<"list.created">[] => {
    const row = db.select().from(lists).where(eq(lists.id, id)).get();
    return row ? [{ type: "list.created", data: toList(db, row) }] : [];
  });
}

/** The types `taskChanged` raises: the task's own, and those of the other tasks of its tree the change moved. */
export const taskChangeRaises = ["task.completed", "task.updated", "task.created", "list.created"] as const;

/** An event for each task of the tree a change brought with it (tasks/cascade.ts). */
export const cascadeEvents = (cascade: Cascaded[] = []): Event<Cascaded["type"]>[] =>
  cascade.map(({ type, task }) => ({ type, data: task }) as Event<Cascaded["type"]>);

/** task.completed (with `next`) when the change completed an open task; task.updated for any other change. */
export function taskChanged(
  db: AccountDb,
  before: TaskBefore & ListsBefore,
  { task, next, cascade }: TaskChange,
): Raised<(typeof taskChangeRaises)[number]> {
  if (before.updatedAt === task.updatedAt) return nothing;
  const event: Event<"task.completed" | "task.updated"> =
    before.completed === false && task.completed
      ? { type: "task.completed", data: next ? { ...task, next } : task }
      : { type: "task.updated", data: task };
  return {
    events: [...createdLists(db, before, task, next), event, ...cascadeEvents(cascade)],
    tasks: [task.id, ...(next ? [next.id] : []), ...(cascade ?? []).map((c) => c.task.id)],
  };
}

/** Runs the verb between its rule's look before and its reading after. A read or `events: none` raises nothing. */
export function runRaising<A, V>(ctx: AccountContext, verb: Verb<A, V>, args: A): { value: V; raised: Raised } {
  if (!verb.writes || verb.events === none) return { value: verb.run(ctx, args), raised: nothing };
  const rule = verb.events;
  const before = rule.before?.(ctx.db, args);
  const value = verb.run(ctx, args);
  return { value, raised: rule.after(ctx.db, args, value, before) };
}
