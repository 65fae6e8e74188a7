import { and, asc, eq, isNotNull, isNull, lte, min } from "drizzle-orm";
import { reminders, tasks } from "../schema";
import type { AccountDb } from "../context";
import type { Event } from "../webhooks/outbox";
import { whereLive } from "./live";
import { toTask } from "./row";

/**
 * Reminders that fire: a `reminders` row per open live task whose reminder is still to come, kept
 * in step with the task by every verb that writes it (its events rule, account/verbs/), and fired by
 * the account object's alarm (scheduler.ts). Firing deletes the row in the transaction that queues
 * the event, so a reminder fires once, whatever retries or restarts follow.
 */

/** Fired per alarm at most; the alarm comes back at once for the rest. */
const BATCH = 100;

/**
 * Brings the reminder rows of these tasks in step with the tasks, after a write. A reminder in the
 * future is (re)scheduled; one in the past is dropped when it was just set (it never fires) and kept
 * when it was already waiting (due, and the alarm fires it at once). A completed, deleted or
 * reminder-less task has none.
 */
export function scheduleReminders(db: AccountDb, taskIds: Iterable<string>, now: number): void {
  for (const taskId of new Set(taskIds)) {
    const task = db
      .select({ reminder: tasks.reminder, completed: tasks.completed })
      .from(tasks)
      .where(whereLive(taskId))
      .get();
    const at = task && !task.completed && task.reminder ? Date.parse(task.reminder) : Number.NaN;
    const waiting = db.select({ at: reminders.at }).from(reminders).where(eq(reminders.taskId, taskId)).get();
    if (at > now) {
      db.insert(reminders).values({ taskId, at }).onConflictDoUpdate({ target: reminders.taskId, set: { at } }).run();
    } else if (waiting && waiting.at !== at) {
      db.delete(reminders).where(eq(reminders.taskId, taskId)).run();
    }
  }
}

/** Every open task's future reminder, scheduled: after the move from D1 wrote the account's rows (move-from-d1.ts). */
export function scheduleAllReminders(db: AccountDb, now: number): void {
  const ids = db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(isNotNull(tasks.reminder), eq(tasks.completed, false), isNull(tasks.deletedAt)))
    .all();
  scheduleReminders(
    db,
    ids.map((t) => t.id),
    now,
  );
}

/** The reminders due at `now`, as `task.reminder` events; their rows are gone once this returns. */
export function fireReminders(db: AccountDb, now: number): Event[] {
  const due = db.select().from(reminders).where(lte(reminders.at, now)).orderBy(asc(reminders.at)).limit(BATCH).all();
  const events: Event[] = [];
  for (const { taskId, at } of due) {
    db.delete(reminders).where(eq(reminders.taskId, taskId)).run();
    const task = db.select().from(tasks).where(whereLive(taskId)).get();
    if (task && !task.completed && task.reminder && Date.parse(task.reminder) === at) {
      events.push({ type: "task.reminder", data: toTask(task) });
    }
  }
  return events;
}

/** When the next reminder is due, in milliseconds since the epoch; null when none is waiting. */
export const nextReminderAt = (db: AccountDb): number | null =>
  db
    .select({ at: min(reminders.at) })
    .from(reminders)
    .get()?.at ?? null;
