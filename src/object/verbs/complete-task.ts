import * as complete from "../tasks/complete";
import { taskBefore, taskChangeRaises, taskChanged } from "./events";
import { verb } from "./verb";

/**
 * POST /api/v1/tasks/{id}/complete, complete_task: completes an open task (task.completed, with the next
 * occurrence of a repeating one); completing it again returns it and raises nothing.
 */
export const completeTask = verb({
  writes: true,
  needsMax: true,
  run: complete.completeTask,
  events: {
    raises: taskChangeRaises,
    before: (db, { id }) => taskBefore(db, id),
    after: (db, _args, change, before) => taskChanged(db, before, change),
  },
});
