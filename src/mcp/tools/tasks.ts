import * as z from "zod";
import { Task, TaskInput, TaskPatch, Tombstone } from "../../domain/tasks/schemas";
import {
  Completed,
  Day,
  IdempotencyKey,
  ListId,
  SearchQuery,
  Since,
  TaskId,
  Timestamp,
} from "../../domain/tasks/values";
import { floatingDate, toFloating } from "../../domain/tasks/wall-clock";
import { listCreatedSentence, type WriteNotice } from "../../domain/lists/notice";
import { tasksOf } from "../../object/tasks/list";
import { defineTool } from "./descriptor";

/**
 * The five task tools, on the same zod schemas (src/domain/tasks/schemas.ts) and verbs as REST.
 * Descriptions stay short: a model reads them on every conversation (test/mcp/budget.test.ts).
 */

const id = TaskId.meta({ description: "The task's `id` (from list_tasks or create_task)." });

const UNKNOWN_LIST =
  "No list has this listId as its id or its name, so no task matched. Call list_tasks with lists: true to see the lists.";

const ALREADY_COMPLETED = "This task was already completed before this call; it stays completed.";
const notice = z.string().optional().meta({ description: "A list this call created, and the closest names." });
const TaskChange = z.object({ task: Task, next: Task.optional(), notice, hint: z.string().optional() });
/** A list the write created, said in a sentence (domain/lists/notice.ts). */
const noticeOf = (n?: WriteNotice) => (n?.listCreated ? { notice: listCreatedSentence(n.listCreated) } : {});
/** A changed task, the next occurrence only when its completion created one, and a hint when it was already done. */
const changeOf = ({
  task,
  next,
  notice,
  alreadyCompleted,
}: {
  task: Task;
  next?: Task;
  notice?: WriteNotice;
  alreadyCompleted?: true;
}) => ({
  task,
  ...(next ? { next } : {}),
  ...noticeOf(notice),
  ...(alreadyCompleted ? { hint: ALREADY_COMPLETED } : {}),
});

export const listTasksTool = defineTool({
  name: "list_tasks",
  title: "List tasks",
  description:
    "Lists the user's tasks (creation order) with the account's `timeZone` and `today`: resolve relative dates like \"tomorrow\" with them. Filters combine; due dates are inclusive and leave out undated tasks. Page with `cursor` = `nextCursor`. To sync, pass an earlier `serverTime` as `since`: changed tasks, and removed ids in `deleted`.",
  input: z.strictObject({
    // Filters whose names say what they do carry no description of their own (tokens, budget.test.ts).
    completed: Completed.optional().meta({ description: "true: done tasks only; false: open only; left out: both." }),
    listId: ListId.optional().meta({ description: "Only this list's tasks (its `id`)." }),
    query: SearchQuery.optional().meta({ description: "Words matched as word prefixes in title or notes." }),
    important: z.boolean().optional(),
    // Inclusive: said once in the tool's description.
    dueBefore: Day.optional(),
    dueAfter: Day.optional(),
    since: Since.optional().meta({ description: "`serverTime` of an earlier result." }),
    limit: z.number().int().min(1).max(200).default(50),
    cursor: z.string().max(1000).optional().meta({ description: "`nextCursor` of the previous page." }),
    lists: z
      .boolean()
      .optional()
      .meta({ description: "true: also return the user's lists [{id, name}] (find a list by name)." }),
  }),
  output: z.object({
    tasks: z.array(Task),
    count: z.number().int(),
    serverTime: Timestamp,
    timeZone: z.string(),
    today: z.string(),
    nextCursor: z.string().optional(),
    deleted: z.array(Tombstone).optional(),
    lists: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
    hint: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, { lists, query: q, ...query }) {
    // With `lists`, the lists come in the same call to the account's object.
    const { page, lists: named } = lists
      ? await ctx.call("listTasksWithLists", { ...query, q })
      : { page: await ctx.call("listTasks", { ...query, q }), lists: undefined };
    const { timeZone } = page;
    return {
      tasks: tasksOf(page),
      count: page.count,
      serverTime: page.serverTime,
      timeZone,
      today: floatingDate(toFloating(Date.parse(page.serverTime), timeZone)),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      ...(page.deleted ? { deleted: page.deleted } : {}),
      ...(page.unknownList ? { hint: UNKNOWN_LIST } : {}),
      ...(named ? { lists: named.map(({ id, name }) => ({ id, name })) } : {}),
    };
  },
});

export const createTaskTool = defineTool({
  name: "create_task",
  title: "Create a task",
  description:
    "Creates a task and returns it. To retry safely, send a `clientRequestId` (a new UUID per task) and reuse it on the retry: within 24 h the first task comes back, with `replayed: true`.",
  // `subtasks` is recursive (a `$ref`, which some hosts do not resolve): mcp34 publishes it for MCP.
  input: TaskInput.omit({ subtasks: true }).extend({
    clientRequestId: IdempotencyKey.optional().meta({ description: "Makes retries safe (see above)." }),
  }),
  output: z.object({ task: Task, replayed: z.literal(true).optional(), notice }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const { clientRequestId, ...task } = input;
    const value = await ctx.call("createTask", { input: task, idempotencyKey: clientRequestId });
    return value.replayed
      ? { task: value.task, replayed: true as const }
      : { task: value.task, ...noticeOf(value.notice) };
  },
});

export const updateTaskTool = defineTool({
  name: "update_task",
  title: "Update a task",
  description:
    'Changes the fields sent and returns the task. `""` clears a text field, `reminder: null` the reminder. `completed: true` completes it like complete_task (`next` for a repeating task); `false` reopens it.',
  input: TaskPatch.extend({ id }),
  output: TaskChange,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, { id, ...patch }) {
    return changeOf(await ctx.call("updateTask", { id, patch }));
  },
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
});
