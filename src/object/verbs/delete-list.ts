import { and, eq, isNull } from "drizzle-orm";
import * as lists from "../lists/service";
import { tasks } from "../schema";
import { verb } from "./verb";

/** DELETE /api/v1/lists/{id}, delete_list: list.deleted, and task.deleted for each of its live tasks. */
export const deleteList = verb({
  writes: true,
  needsMax: true,
  run: lists.deleteList,
  events: {
    raises: ["list.deleted", "task.deleted"],
    // Its live tasks go with it: each raises task.deleted.
    before: (db, { id }) =>
      db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.listId, id), isNull(tasks.deletedAt)))
        .all()
        .map((t) => t.id),
    after: (_db, { id }, _value, taskIds) => ({
      events: [
        { type: "list.deleted", data: { id } },
        ...taskIds.map((taskId) => ({ type: "task.deleted" as const, data: { id: taskId } })),
      ],
      tasks: taskIds,
    }),
  },
});
