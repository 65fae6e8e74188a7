import * as write from "../tasks/write";
import { descendantsOf } from "../tasks/tree";
import { verb } from "./verb";

/** DELETE /api/v1/tasks/{id}, delete_task: a tombstone and task.deleted for the task and each of its subtasks. */
export const deleteTask = verb({
  writes: true,
  needsMax: true,
  run: write.deleteTask,
  events: {
    raises: ["task.deleted"],
    before: (db, { id }) => descendantsOf(db, id).map((row) => row.id),
    after: (_db, { id }, _value, below) => ({
      events: [id, ...below].map((taskId) => ({ type: "task.deleted" as const, data: { id: taskId } })),
      tasks: [id, ...below],
    }),
  },
});
