import { TaskPatch } from "../../domain/tasks/schemas";
import * as write from "../tasks/write";
import { createdLabels, labelsBefore } from "../labels/names";
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
    raises: [...taskChangeRaises, "label.created"],
    before: (db, { id, patch }) => ({
      ...taskBefore(db, id),
      ...listsBefore(db, patch.listId),
      ...labelsBefore(db, patch.labels),
    }),
    after: (db, _args, change, before) => {
      const raised = taskChanged(db, before, change);
      return { ...raised, events: [...createdLabels(db, before), ...raised.events] };
    },
  },
});
