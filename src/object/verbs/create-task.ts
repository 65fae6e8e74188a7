import { withRequestHash } from "../tasks/idempotency";
import { TaskInput } from "../../domain/tasks/schemas";
import * as write from "../tasks/write";
import { createdLabels, labelsBefore } from "../labels/names";
import { createdLists, listsBefore, nothing } from "./events";
import { verb } from "./verb";

/**
 * POST /api/v1/tasks, create_task, the page's new task. A create with an idempotency key replays its
 * first result within 24 hours, and a replay raises nothing again.
 */
export const createTask = verb({
  writes: true,
  needsMax: true,
  input: { input: TaskInput },
  // The key's record is matched by the input's SHA-256, and WebCrypto cannot run inside the transaction.
  prepare: (args) => withRequestHash(args),
  run: write.createTask,
  events: {
    raises: ["task.created", "list.created", "label.created"],
    before: (db, { input }) => ({ ...listsBefore(db, input.listId), ...labelsBefore(db, input.labels) }),
    after: (db, _args, { task, replayed }, before) =>
      replayed
        ? nothing
        : {
            events: [
              ...createdLists(db, before, task),
              ...createdLabels(db, before),
              { type: "task.created", data: task },
            ],
            tasks: [task.id],
          },
  },
});
