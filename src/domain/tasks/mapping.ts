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
