import * as z from "zod";
import { TaskInput, TaskPatch } from "../../domain/tasks/schemas";
import { IdempotencyKey, TaskId } from "../../domain/tasks/values";
import { changedFields, type ListNotice, renderChange, renderCreated, renderDeleted } from "../render/tasks";
import { defineTool } from "./descriptor";
import { declaredField, forModel, ModelTask } from "./task-shape";

/**
 * Four of the five task tools (list_tasks: list-tasks.ts), on the same zod schemas (src/domain/tasks/schemas.ts) and verbs as REST.
 * Descriptions stay short: a model reads them on every conversation (test/mcp/budget.test.ts).
 */

const id = TaskId.meta({ description: "The task's `id` (from list_tasks or create_task)." });

const ALREADY_COMPLETED = "This task was already completed before this call; it stays completed.";
const TaskChange = z.object({ task: ModelTask, next: ModelTask.optional(), hint: z.string().optional() });
/**
 * A changed task, the next occurrence only when its completion created one, and the new-list notice
 * when the verb sends one (issue 34 item 5), without the sync-only fields.
 */
function changeOf(value: { task: object; next?: object; notice?: ListNotice; alreadyCompleted?: true }) {
  return {
    task: forModel(value.task) as ModelTask,
    ...(value.next ? { next: forModel(value.next) as ModelTask } : {}),
    ...(value.notice ? { notice: value.notice } : {}),
    // Completing is idempotent; the model learns the task was done before (issue 35 item 21).
    ...(value.alreadyCompleted ? { hint: ALREADY_COMPLETED } : {}),
  };
}

/** Keys of a schema's shape that the domain declares (issue 34's fields land in parallel). */
const mask = (shape: object, names: string[]) =>
  Object.fromEntries(names.filter((name) => name in shape).map((name) => [name, true])) as { listId: true };

/**
 * A plan in one call (issue 34): steps created under the new task, atomically, in their order. One
 * level here where REST nests (TaskInput's `subtasks` refers to itself, a `$ref`): published arguments
 * stay inline, as some hosts do not resolve `$ref`s. A step of a step is a create_task with `parentId`.
 * A subtask shares its parent's list.
 */
const subtasks = declaredField("parentId")
  ? {
      subtasks: z
        .array(TaskInput.omit(mask(TaskInput.shape, ["listId", "parentId", "subtasks"])))
        .min(1)
        .max(50)
        .optional()
        .meta({ description: "Subtasks to create under it, in order (up to 50); each takes this tool's task fields." }),
    }
  : {};

export const createTaskTool = defineTool({
  name: "create_task",
  title: "Create a task",
  description:
    "Creates a task and returns it. To retry safely, send a `clientRequestId` (a new UUID per task) and reuse it on the retry: within 24 h the first task comes back, with `replayed: true`.",
  input: TaskInput.extend({
    ...subtasks,
    clientRequestId: IdempotencyKey.optional().meta({ description: "Makes retries safe (see above)." }),
  }),
  output: z.object({ task: ModelTask, replayed: z.literal(true).optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const { clientRequestId, ...task } = input;
    const value = await ctx.call("createTask", { input: task as TaskInput, idempotencyKey: clientRequestId });
    const { notice } = value as { notice?: ListNotice };
    return {
      task: forModel(value.task) as ModelTask,
      ...(value.replayed ? { replayed: true as const } : {}),
      ...(notice ? { notice } : {}),
    };
  },
  text: renderCreated,
});

/**
 * Where to place the task among its siblings (issue 34): `before`/`after` a sibling's id, the rule
 * move_task shares. Added here only while the domain's TaskPatch does not declare them itself.
 */
const placement =
  declaredField("position") && !("before" in TaskPatch.shape)
    ? {
        before: TaskId.optional().meta({ description: "Place it just before this sibling task (its id)." }),
        after: TaskId.optional().meta({ description: "Place it just after this sibling task (its id)." }),
      }
    : {};

export const updateTaskTool = defineTool({
  name: "update_task",
  title: "Update a task",
  description:
    'Changes the fields sent and returns the task. `""` clears a text field, `reminder: null` the reminder. `completed: true` completes it like complete_task (`next` for a repeating task); `false` reopens it.',
  input: TaskPatch.extend({ ...placement, id }),
  output: TaskChange,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, { id, ...patch }) {
    return changeOf(await ctx.call("updateTask", { id, patch: patch as TaskPatch }));
  },
  text: (output, { id: _, ...patch }) => renderChange("Updated", output, changedFields(patch)),
});

export const completeTaskTool = defineTool({
  name: "complete_task",
  title: "Complete a task",
  description:
    "Marks a task done and returns it; for a repeating task, `next` is the next occurrence. A retry returns the same result, with a `hint` that it was already completed.",
  input: z.strictObject({ id }),
  output: TaskChange,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return changeOf(await ctx.call("completeTask", { id: input.id }));
  },
  text: (output) => renderChange("Completed", output),
});

export const deleteTaskTool = defineTool({
  name: "delete_task",
  title: "Delete a task",
  description: "Deletes a task for good; sync shows it in `deleted`. Confirm with the user first.",
  input: z.strictObject({ id }),
  output: z.object({ id: z.string(), deleted: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    await ctx.call("deleteTask", { id: input.id });
    return { id: input.id, deleted: true as const };
  },
  text: renderDeleted,
});
