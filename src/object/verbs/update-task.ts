import { TaskPatch } from "../../domain/tasks/schemas";
import * as write from "../tasks/write";
import { listsBefore, taskBefore, taskChangeRaises, taskChanged } from "./events";
import { verb } from "./verb";

/**
 * PATCH /api/v1/tasks/{id}, update_task, the page's edits. `completed: true` completes (task.completed,
 * with the next occurrence); a `{}` patch changes nothing and raises nothing.
 */
export const updateTask = verb({
  writes: true,
  needsMax: true,
  input: { patch: TaskPatch },
  run: write.updateTask,
  events: {
    raises: taskChangeRaises,
    before: (db, { id, patch }) => ({ ...taskBefore(db, id), ...listsBefore(db, patch.listId) }),
    after: (db, _args, change, before) => taskChanged(db, before, change),
  },
});
