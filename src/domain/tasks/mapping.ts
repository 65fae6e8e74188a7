import { sql } from "drizzle-orm";
import type { TaskRow } from "../../db/schema";
import type { Task } from "./schemas";

/** Row → API shape. Unset optional fields are omitted rather than sent as null. */
export function toTask(row: TaskRow): Task {
  const task: Task = { id: row.id, title: row.title, completed: row.completed, updatedAt: row.updatedAt, important: row.important };
  if (row.listId) task.listId = row.listId;
  if (row.due) task.due = row.due;
  if (row.reminder) task.reminder = row.reminder;
  if (row.repeat) task.repeat = row.repeat;
  if (row.notes) task.notes = row.notes;
  return task;
}

/**
 * The same API shape built by SQLite, for listings: one JSON text per task, so a list of
 * thousands crosses from D1 as one string instead of thousands of row objects mapped in JS.
 * `json_patch` drops the optional keys whose value is NULL, exactly as toTask omits them
 * (test/domain/task-json.test.ts holds the two to the same output).
 */
export const taskJsonSql = sql.raw(`json_patch(
  json_object('id', id, 'title', title, 'completed', json(iif(completed, 'true', 'false')),
              'updatedAt', updated_at, 'important', json(iif(important, 'true', 'false'))),
  json_object('listId', list_id, 'due', due, 'reminder', reminder, 'repeat', repeat, 'notes', notes))`);
