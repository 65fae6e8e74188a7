import * as z from "zod";
import { Tombstone } from "../../domain/tasks/schemas";
import { Completed, Day, ListId, SearchQuery, Since, TaskId, Timestamp } from "../../domain/tasks/values";
import { floatingDate, toFloating } from "../../domain/tasks/wall-clock";
import type { ListTasksQuery } from "../../object/tasks/list";
import { tasksOf } from "../../object/tasks/list";
import { TASKS_APP_URI } from "../app/resource";
import { renderPage } from "../render/tasks";
import { defineTool } from "./descriptor";
import { declaredField, forModel, ModelTask } from "./task-shape";

const UNKNOWN_LIST =
  "No list has this listId as its id or its name, so no task matched. Call list_tasks with lists: true to see the lists.";

const priority = declaredField("priority");
const label = (declaredField("labels") as z.ZodArray<z.ZodType> | undefined)?.element;
/** A number is taken for a list of one: models send `priority: 4` as often as `[4]`. */
const oneOrMore = (schema: z.ZodType) =>
  z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? v : [v]), z.array(schema).min(1).max(4));

/**
 * The filters of issue 34 (labels, priority, parent, sort), on the domain's schemas of those fields:
 * published once the domain declares them (src/domain/tasks/fields.ts).
 */
const issue34Filters = {
  ...(label
    ? { labels: z.array(label).min(1).max(20).optional().meta({ description: "Tasks with all these labels." }) }
    : {}),
  ...(priority
    ? {
        priority: oneOrMore(priority.meta({ description: undefined }))
          .optional()
          .meta({ description: "Tasks with one of these priorities (4 urgent … 1 none)." }),
      }
    : {}),
  ...(declaredField("parentId")
    ? {
        parentId: z
          .union([z.literal(""), TaskId])
          .optional()
          .meta({ description: 'Subtasks of this task; "" for top-level tasks only.' }),
      }
    : {}),
  ...(declaredField("position")
    ? {
        sort: z
          .enum(["position", "due", "priority"])
          .optional()
          .meta({ description: "position: the user's order; due: soonest first; priority: most urgent first." }),
      }
    : {}),
};

export const listTasksTool = defineTool({
  name: "list_tasks",
  title: "List tasks",
  description:
    "Lists the user's tasks (creation order) with the account's `timeZone` and `today`: resolve relative dates like \"tomorrow\" with them. Filters combine; due dates are inclusive and leave out undated tasks. Page with `cursor` = `nextCursor`. To sync, pass an earlier `serverTime` as `since`: changed tasks, and removed ids in `deleted`.",
  input: z.strictObject({
    // Filters whose names say what they do carry no description of their own (tokens, budget.test.ts).
    completed: Completed.optional().meta({ description: "true: done tasks only; false: open only; left out: both." }),
    listId: ListId.optional().meta({ description: "Only this list's tasks (its `id`)." }),
    query: SearchQuery.optional().meta({ description: "Words matched as word prefixes in title, notes or labels." }),
    important: z.boolean().optional(),
    // Inclusive: said once in the tool's description.
    dueBefore: Day.optional(),
    dueAfter: Day.optional(),
    ...issue34Filters,
    since: Since.optional().meta({ description: "`serverTime` of an earlier result." }),
    limit: z.number().int().min(1).max(200).default(50),
    cursor: z.string().max(1000).optional().meta({ description: "`nextCursor` of the previous page." }),
    lists: z
      .boolean()
      .optional()
      .meta({ description: "true: also return the user's lists [{id, name}] (find a list by name)." }),
  }),
  output: z.object({
    tasks: z.array(ModelTask),
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
  _meta: { ui: { resourceUri: TASKS_APP_URI } },
  async run(ctx, { lists, query: q, labels, ...filters }) {
    // REST's query names: `label` is repeatable there.
    const query = { ...filters, q, ...(labels ? { label: labels } : {}) } as ListTasksQuery;
    // With `lists`, the lists come in the same call to the account's object.
    const { page, lists: named } = lists
      ? await ctx.call("listTasksWithLists", query)
      : { page: await ctx.call("listTasks", query), lists: undefined };
    const { timeZone } = page;
    return {
      tasks: tasksOf(page).map((task) => forModel(task)),
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
  text: renderPage,
});
