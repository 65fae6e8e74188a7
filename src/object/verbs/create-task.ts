import { withRequestHash } from "../tasks/idempotency";
import { TaskInput } from "../../domain/tasks/schemas";
import * as write from "../tasks/write";
import { createdLabels, labelsBefore } from "../labels/names";
import type { TaskTree } from "../../domain/tasks/schemas";
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
    raises: ["task.created", "task.updated", "list.created", "label.created"],
    before: (db, { input }) => ({ ...listsBefore(db, input.listId), ...labelsBefore(db, labelsInTree(input)) }),
    after: (db, _args, { task, replayed, cascade }, before) => {
      if (replayed) return nothing;
      // The task and each subtask created with it, parents first; then the parents a new open subtask reopened.
      const created = treeOf(task);
      return {
        events: [
          ...createdLists(db, before, task),
          ...createdLabels(db, before),
          ...created.map((data) => ({ type: "task.created" as const, data })),
          // A create's cascade only reopens parents (tasks/create.ts).
          ...(cascade ?? []).map((c) => ({ type: "task.updated" as const, data: c.task })),
        ],
        tasks: [...created, ...(cascade ?? []).map((c) => c.task)].map((t) => t.id),
      };
    },
  },
});

/** A task and its subtasks at every level, each without its `subtasks`: as a task.created event carries it. */
function treeOf({ subtasks, ...task }: TaskTree): TaskTree[] {
  return [task, ...(subtasks ?? []).flatMap(treeOf)];
}

/** Every label the new task and its subtasks name: a label any of them brings into being raises label.created. */
function labelsInTree(input: { labels?: string[]; subtasks?: unknown[] }): string[] {
  return [
    ...(input.labels ?? []),
    ...((input.subtasks ?? []) as { labels?: string[]; subtasks?: unknown[] }[]).flatMap(labelsInTree),
  ];
}
