import { and, eq, isNull } from "drizzle-orm";
import type { AccountDb } from "../domain/context";
import { toList } from "../domain/lists/service";
import type { List } from "../domain/lists/schemas";
import type { TaskChange } from "../domain/tasks/live";
import type { Task } from "../domain/tasks/schemas";
import type { Event } from "../domain/webhooks/outbox";
import { lists, tasks } from "./schema";
import type { VerbArgs, VerbName, VerbValue } from "./verbs";

/**
 * What each verb raised, read from its arguments and its result (and, where the result cannot say,
 * from a look at the rows before it ran), in the verb's own transaction (object.ts). Every surface
 * (REST, MCP by key or OAuth, the account page) runs the same verbs, so all raise the same events.
 * `tasks` are the tasks whose reminders may have moved (tasks/reminders.ts).
 */
export interface Raised {
  events: Event[];
  tasks: string[];
}

type Before = { updatedAt?: string; completed?: boolean; taskIds?: string[]; listIds?: Set<string> };

interface Rule<V extends VerbName> {
  before?: (db: AccountDb, args: VerbArgs<V>) => Before;
  after: (db: AccountDb, args: VerbArgs<V>, value: VerbValue<V>, before: Before) => Raised;
}

const none: Raised = { events: [], tasks: [] };

/** The task as it was: an update that changed nothing raises nothing. */
const taskBefore = (db: AccountDb, { id }: { id: string }): Before =>
  db.select({ updatedAt: tasks.updatedAt, completed: tasks.completed }).from(tasks).where(eq(tasks.id, id)).get() ?? {};

/** The live lists, when the write names one: a task may create its list (migration 0001's triggers). */
const listsBefore = (db: AccountDb, listId: unknown): Before =>
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
function createdLists(db: AccountDb, before: Before, ...written: (Task | undefined)[]): Event[] {
  if (!before.listIds) return [];
  const ids = new Set(written.map((t) => t?.listId).filter((id): id is string => !!id && !before.listIds!.has(id)));
  return [...ids].flatMap((id) => {
    const row = db.select().from(lists).where(eq(lists.id, id)).get();
    return row ? [{ type: "list.created" as const, data: toList(db, row) }] : [];
  });
}

/** task.completed (with `next`) when the change completed an open task; task.updated for any other change. */
function taskChanged(db: AccountDb, before: Before, { task, next }: TaskChange): Raised {
  if (before.updatedAt === task.updatedAt) return none;
  const completed = before.completed === false && task.completed;
  const event: Event = completed
    ? { type: "task.completed", data: next ? { ...task, next } : task }
    : { type: "task.updated", data: task };
  return { events: [...createdLists(db, before, task, next), event], tasks: next ? [task.id, next.id] : [task.id] };
}

const rules: { [V in VerbName]?: Rule<V> } = {
  createTask: {
    before: (db, { input }) => listsBefore(db, input.listId),
    after: (db, _args, { task, replayed }, before) =>
      replayed
        ? none
        : { events: [...createdLists(db, before, task), { type: "task.created", data: task }], tasks: [task.id] },
  },
  updateTask: {
    before: (db, args) => ({ ...taskBefore(db, args), ...listsBefore(db, args.patch.listId) }),
    after: (db, _args, value, before) => taskChanged(db, before, value),
  },
  completeTask: {
    before: taskBefore,
    after: (db, _args, value, before) => taskChanged(db, before, value),
  },
  deleteTask: {
    after: (_db, { id }) => ({ events: [{ type: "task.deleted", data: { id } }], tasks: [id] }),
  },
  createList: {
    after: (_db, _args, list) => ({ events: [{ type: "list.created", data: list }], tasks: [] }),
  },
  updateList: {
    before: (db, { id }) => db.select({ updatedAt: lists.updatedAt }).from(lists).where(eq(lists.id, id)).get() ?? {},
    after: (_db, _args, list: List, before) =>
      before.updatedAt === list.updatedAt ? none : { events: [{ type: "list.updated", data: list }], tasks: [] },
  },
  deleteList: {
    // Its live tasks go with it: each raises task.deleted.
    before: (db, { id }) => ({
      taskIds: db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.listId, id), isNull(tasks.deletedAt)))
        .all()
        .map((t) => t.id),
    }),
    after: (_db, { id }, _value, before) => ({
      events: [
        { type: "list.deleted", data: { id } },
        ...before.taskIds!.map((taskId) => ({ type: "task.deleted" as const, data: { id: taskId } })),
      ],
      tasks: before.taskIds!,
    }),
  },
};

/**
 * Runs `verb` between its rule's look before and its reading after. Verbs without a rule (reads,
 * webhook management) raise nothing.
 */
export function runRaising<V extends VerbName>(
  db: AccountDb,
  verb: V,
  args: VerbArgs<V>,
  run: () => VerbValue<V>,
): { value: VerbValue<V>; raised: Raised } {
  const rule = rules[verb] as Rule<V> | undefined;
  if (!rule) return { value: run(), raised: none };
  const before = rule.before?.(db, args) ?? {};
  const value = run();
  return { value, raised: rule.after(db, args, value, before) };
}
