import * as write from "../tasks/write";
import { verb } from "./verb";

/** DELETE /api/v1/tasks/{id}, delete_task: a tombstone, and task.deleted. */
export const deleteTask = verb({
  writes: true,
  needsMax: true,
  run: write.deleteTask,
  events: {
    raises: ["task.deleted"],
    after: (_db, { id }) => ({ events: [{ type: "task.deleted", data: { id } }], tasks: [id] }),
  },
});
