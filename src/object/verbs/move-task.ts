import { TaskMove } from "../../domain/tasks/schemas";
import * as write from "../tasks/write";
import { listsBefore, taskBefore, taskChangeRaises, taskChanged } from "./events";
import { verb } from "./verb";

/**
 * POST /api/v1/tasks/{id}/move, the page's drag and keyboard moves: another place among its siblings, under
 * another parent or in another list (with its subtasks). A move to where it is changes and raises nothing.
 */
export const moveTask = verb({
  writes: true,
  needsMax: true,
  input: { move: TaskMove },
  run: write.moveTask,
  events: {
    raises: taskChangeRaises,
    before: (db, { id, move }) => ({ ...taskBefore(db, id), ...listsBefore(db, move.listId) }),
    after: (db, _args, change, before) => taskChanged(db, before, change),
  },
});
