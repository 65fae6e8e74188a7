import * as service from "../labels/service";
import { verb } from "./verb";

/** DELETE /api/v1/labels/{id}: label.deleted, and task.updated for each live task it was taken off. */
export const deleteLabel = verb({
  writes: true,
  needsMax: true,
  run: service.deleteLabel,
  events: {
    raises: ["label.deleted", "task.updated"],
    before: (db, { id }) => service.taskIdsWithLabel(db, id),
    after: (db, { id }, _value, taskIds) => ({
      events: [
        { type: "label.deleted", data: { id } },
        ...service.tasksByIds(db, taskIds).map((task) => ({ type: "task.updated" as const, data: task })),
      ],
      tasks: [],
    }),
  },
});
