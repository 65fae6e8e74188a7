import * as z from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { Caller } from "../domain/tasks/caller";
import { listPacks } from "../domain/calendars/catalogue";
import { CalendarManifestEntry, PackFilter } from "../domain/calendars/schemas";
import { completeTaskAs, createTaskAs, listTasksAs, parseTasks } from "../domain/tasks/service";
import { Completed, IdempotencyKey, ListId, Since, Task, TaskId, TaskInput, Timestamp, Tombstone } from "../domain/tasks/schemas";

/**
 * The four MCP tools as plain descriptors. Each validates with the shared zod schemas and
 * calls the same domain verb as REST; `server.ts` registers them, `errors.ts` maps failures.
 */

export interface ToolContext {
  /**
   * Who the task tools act for: the request's API key, whose lookup rides in the verb's own D1
   * batch (see caller.ts). The handler answers 401 before any result leaves (handler.ts).
   */
  caller: Caller;
  /** Static assets (the calendar catalogue). */
  assets: Fetcher;
  /** Origin of the request, for links in results and errors. */
  origin: string;
}

/** Every tool states all four hints: clients decide on confirmation prompts from them. */
export interface ToolHints extends ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolDescriptor<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolHints;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.input<O>>;
}

const defineTool = <I extends z.ZodType, O extends z.ZodType>(tool: ToolDescriptor<I, O>) => tool;

// Rebuilt from the shared shapes without their registry ids, so tool schemas are inline (no `$ref`s).
const ToolTask = z.object(Task.shape).meta({ description: "A personal task. Optional fields are absent when unset." });
const taskFormats =
  "Fields: `id`; `title`; `completed`; `updatedAt` (RFC 3339 UTC); optional `listId`, `due` (`YYYY-MM-DD` or RFC 3339 date-time with offset), `reminder` (RFC 3339 date-time with offset), `repeat` (RFC 5545 RRULE), `notes`, `important`.";

export const listTasksTool = defineTool({
  name: "list_tasks",
  title: "List tasks",
  description: [
    "Lists the user's tasks in creation order. Use it to see what is on the user's list, to find a task's `id` before completing it, or to sync changes.",
    "Filter with `completed` (false: open tasks only) and `listId`. Pages hold `limit` tasks (1 to 200, default 50); when `nextCursor` is present, call again with `cursor` set to it for the next page.",
    "For sync, pass a previous result's `serverTime` as `since`: you get the tasks changed at or after it and, in `deleted`, the ids of tasks deleted since.",
    taskFormats,
  ].join(" "),
  input: z.strictObject({
    completed: Completed.optional().meta({ description: "true: only completed tasks; false: only open tasks; omit for both." }),
    listId: ListId.optional().meta({ description: "Only tasks of this list: 1 to 100 of `[A-Za-z0-9_-]`." }),
    since: Since.optional().meta({
      description: "RFC 3339 date-time. Only tasks changed at or after it (inclusive); pass `serverTime` from an earlier list_tasks result.",
      example: "2026-11-22T10:15:30.123Z",
    }),
    limit: z.number().int().min(1).max(200).default(50).meta({ description: "Page size, 1 to 200. Default 50." }),
    cursor: z.string().max(1000).optional().meta({ description: "`nextCursor` from the previous page, unchanged." }),
  }),
  output: z.object({
    tasks: z.array(ToolTask),
    count: z.number().int().meta({ description: "Number of tasks in `tasks`." }),
    serverTime: Timestamp.meta({ description: "The server clock when the list was read; pass it as `since` on the next sync." }),
    nextCursor: z.string().optional().meta({ description: "Present when more tasks follow: pass it as `cursor`." }),
    deleted: z
      .array(z.object(Tombstone.shape).meta({ description: "A task deleted at or after `since`." }))
      .optional()
      .meta({ description: "With `since`: tasks deleted at or after it." }),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const { value: page } = await listTasksAs(ctx.caller, input);
    return {
      tasks: parseTasks(page),
      count: page.count,
      serverTime: page.serverTime,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      ...(page.deleted ? { deleted: page.deleted } : {}),
    };
  },
});

export const createTaskTool = defineTool({
  name: "create_task",
  title: "Create a task",
  description: [
    "Creates a task in the user's account and returns it with its `id`. Use it when the user asks to add, note or schedule something to do. Each call creates a new task, so do not retry a call that succeeded. To retry safely after a timeout, send a `clientRequestId` (e.g. a UUID) and reuse it on the retry: within 24 hours the same id with the same fields returns the first task instead of creating another; the same id with other fields is refused (`idempotency_key_reused`).",
    "`title` is required: 1 to 500 characters, not only spaces. `notes`: at most 20000 characters. `due`: `YYYY-MM-DD` for an all-day task, or an RFC 3339 date-time with offset (`2026-12-24T09:00:00+01:00`). `reminder`: RFC 3339 date-time with offset. `repeat`: an RFC 5545 RRULE without the `RRULE:` prefix (`FREQ=WEEKLY;BYDAY=MO`). `listId`: 1 to 100 of `[A-Za-z0-9_-]`. `important`: boolean. No other fields are accepted.",
  ].join(" "),
  input: z
    .strictObject({ ...TaskInput.shape, clientRequestId: IdempotencyKey.optional() })
    .meta({ description: "The new task, and optionally a `clientRequestId` that makes retries safe." }),
  output: z.object({ task: ToolTask.meta({ description: "The created task." }) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    const { clientRequestId, ...task } = input;
    const { value } = await createTaskAs(ctx.caller, task, { idempotencyKey: clientRequestId });
    return { task: value.task };
  },
});

export const completeTaskTool = defineTool({
  name: "complete_task",
  title: "Complete a task",
  description: [
    "Marks one of the user's tasks as done and returns it. Use it when the user says a task is finished; get the `id` from list_tasks or create_task.",
    "Completing a task that is already completed returns it unchanged, so a retry is safe. When a repeating task is completed, `next` is the next occurrence the service created.",
    taskFormats,
  ].join(" "),
  input: z.strictObject({ id: TaskId.meta({ description: "The task's `id`, as returned by list_tasks or create_task." }) }),
  output: z.object({
    task: ToolTask.meta({ description: "The completed task." }),
    next: ToolTask.optional().meta({ description: "For a repeating task: the next occurrence, created open." }),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    const { task, next } = (await completeTaskAs(ctx.caller, input.id)).value;
    return next ? { task, next } : { task };
  },
});

export const listCalendarPacksTool = defineTool({
  name: "list_calendar_packs",
  title: "List public holiday calendars",
  description: [
    "Lists the public holiday calendar packs the service publishes (countries and their regions), without their events. Use it to find the pack for a country or region, e.g. before telling the user which holidays fall on a date or how to subscribe.",
    "`country`: ISO 3166-1 alpha-2 code in any case (`DE`). `query`: text matched against the pack's name, id or country, case- and accent-insensitive (`bayern`). Both are optional; with neither, every pack is listed.",
    "Each pack has an `id` (`de`, `de-by`), `name`, `country`, optional `region`, `languages`, covered `years`, `eventCount`, and root-relative `url` (JSON with events) and `icsUrl` (iCalendar feed) to resolve against the service origin.",
  ].join(" "),
  input: z.strictObject(PackFilter.shape),
  output: z.object({
    packs: z.array(z.object(CalendarManifestEntry.shape).meta({ description: "A public holiday calendar pack, without its events." })),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { packs: await listPacks(ctx.assets, input) };
  },
});

export const tools = [listTasksTool, createTaskTool, completeTaskTool, listCalendarPacksTool] as const;
