import * as z from "zod";
import type { Context } from "hono";
import { listCreatedSentence, type WriteNotice } from "../../domain/lists/notice";
import { SubtaskInputRef, Task, TaskTreeRef, Tombstone } from "../../domain/tasks/schemas";
import {
  Day,
  IdempotencyKey,
  LabelName,
  ListId,
  ListRef,
  MAX_TASK_LABELS,
  SearchQuery,
  Since,
  TaskId,
} from "../../domain/tasks/values";

/** The parameters, headers and collection of the task routes (tasks.ts), as OpenAPI declares them. */

// The recursive schemas as named components: the generator follows a lazy schema by its name, and would
// otherwise expand a tree forever (`.openapi` on a lazy schema names that schema itself).
SubtaskInputRef.openapi("SubtaskInput");
TaskTreeRef.openapi("TaskTree");

export const TaskCollection = z
  .object({
    data: z.array(Task).meta({ description: "The tasks of this page (all matching tasks without `limit`)." }),
    meta: z
      .object({
        count: z.number().int().meta({ description: "Number of tasks in `data`.", example: 1 }),
        serverTime: z.string().meta({
          description: "The database clock when the list was read. Pass it as `since` on the next sync.",
          example: "2026-11-22T10:15:30.123Z",
        }),
        deleted: z.array(Tombstone).optional().meta({ description: "With `since`: tasks deleted at or after it." }),
        hint: z.string().optional().meta({
          description:
            "Set when `listId` names no list (by id, by name, or by name ignoring case, spaces, dashes and underscores): why `data` is empty, and the closest list names.",
          example:
            'No list has this listId as its id or its name, so no task matched. Did you mean "Groceries"? GET /api/v1/lists gives the lists.',
        }),
        nextCursor: z.string().optional().meta({
          description: "With `limit`: pass as `cursor` for the next page; absent on the last page.",
          example: "WyJ2MiIsIjAxOTM3YzRlLThhMmItN2MzZC05ZTRmLTVhNmI3YzhkOWUwZiIsIjIwMjYtMTEtMjJUMTA6MTU6MzAuMTIzWiJd",
        }),
      })
      .meta({ description: "About the list: size, server clock, paging and deletions." }),
  })
  .openapi("TaskCollection", { description: "A list of tasks with its metadata." });

export const ListQuery = z.object({
  q: SearchQuery.optional().openapi({
    description:
      'Full-text search: every word must start a word of the title or notes, ignoring case and accents ("cafe" finds "Café", "pass" finds "passport"). Combines with every other filter and with pages.',
    example: "passport",
  }),
  since: Since.optional(),
  completed: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ description: "Only completed (`true`) or open (`false`) tasks.", example: "false" }),
  listId: ListRef.optional().openapi({
    description: "Only tasks of this list: its id, or its name (ignoring case, spaces, dashes and underscores).",
  }),
  important: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ description: "Only important (`true`) or other (`false`) tasks.", example: "true" }),
  // Repeated (`label=a&label=b`), the query holds an array; once, a string.
  label: z
    .union([LabelName, z.array(LabelName).max(MAX_TASK_LABELS)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional()
    .openapi({
      description:
        "Only tasks with this label (matched ignoring case). Repeat it for tasks with every one of them: `label=errand&label=phone`.",
      example: "errand",
    }),
  dueBefore: Day.optional().openapi({
    description:
      "Only tasks due on or before this date (inclusive). A due date-time counts on the date it is written with.",
    example: "2026-12-31",
  }),
  dueAfter: Day.optional().openapi({
    description: "Only tasks due on or after this date (inclusive). Tasks without `due` are left out by either filter.",
    example: "2026-12-01",
  }),
  priority: z
    .string()
    // A refinement, not a regex: its pattern would read as a Markdown link in the generated reference.
    .refine((v) => v.split(",").every((p) => ["1", "2", "3", "4"].includes(p)), {
      message: "must be 1 to 4, or several separated by commas, e.g. 3,4",
    })
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .optional()
    .openapi({ description: "Only tasks of this priority (1–4), or of any of several: `3,4`.", example: "3,4" }),
  parentId: z
    .union([z.literal(""), TaskId])
    .optional()
    .openapi({
      description: "Only the subtasks of this task; empty (`parentId=`) for top-level tasks only.",
      example: "",
    }),
  sort: z.enum(["position", "due", "priority"]).optional().openapi({
    description:
      "`position`: each list's manual order, a parent right before its subtasks (lists apart, tasks in no list first); `due`: soonest first, undated last; `priority`: highest first, then by due. Sorted pages (`limit`) walk by offset. Without it: by `updatedAt` (by `id` with `limit`).",
    example: "position",
  }),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({
    description:
      "Page size, 1 to 500. Without it, every matching task is returned in one response. With it, pages are in creation order.",
    example: 100,
  }),
  cursor: z.string().max(1000).optional().openapi({
    description: "`meta.nextCursor` of the previous page, unchanged.",
    example: "WyJ2MiIsIjAxOTM3YzRlLThhMmItN2MzZC05ZTRmLTVhNmI3YzhkOWUwZiIsIjIwMjYtMTEtMjJUMTA6MTU6MzAuMTIzWiJd",
  }),
});

export const IdParam = z.object({ id: TaskId.openapi({ param: { name: "id", in: "path" } }) });

export const ETag = {
  ETag: {
    description:
      "Strong entity tag of the task's current version. Send it back in `If-Match` to update or delete only that version.",
    schema: { type: "string" as const, example: '"1x2y3z-mfq0k2a3"' },
  },
};

export const IfMatchHeader = z.object({
  "if-match": z
    .string()
    .max(2000)
    .optional()
    .openapi({
      param: { name: "if-match", in: "header" },
      description:
        "The `ETag` from your last read. If the task changed since, the answer is 412 `precondition_failed` and nothing changes. Without it, the last write wins.",
      example: '"1x2y3z-mfq0k2a3"',
    }),
});

export const IdempotencyHeader = z.object({
  "idempotency-key": IdempotencyKey.optional().openapi({ param: { name: "idempotency-key", in: "header" } }),
});

export const SubtasksQuery = z.object({
  subtasks: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({
      description: "`true`: the task with its subtasks at every level, in order (`subtasks`).",
      example: "true",
    }),
});

/** The body's `notice` and the `List-Created` header: a write that created a list says so (domain/lists/notice.ts). */
export const Notice = z
  .object({
    listCreated: z
      .object({
        id: ListId,
        name: z.string().meta({ description: "The new list's name: its id.", example: "grocery" }),
        closest: z
          .array(z.string())
          .meta({ description: "Existing lists' names closest to it.", example: ["Groceries"] }),
        message: z.string().meta({
          description: "The same in a sentence.",
          example:
            'Created a new list "grocery". Did you mean Groceries? Move it with PATCH or POST …/move with listId.',
        }),
      })
      .optional()
      .meta({ description: "The `listId` matched no list's id or name, so this list was created for it." }),
  })
  .meta({ description: "What the write did besides the task; absent when nothing." });

export const ListCreatedHeader = {
  "List-Created": {
    description:
      "Present when the write created a list because its `listId` matched no list (by id, by name, or ignoring case, spaces, dashes and underscores): the new list's name (its id, so plain ASCII). `notice.listCreated` in the body names the closest existing lists.",
    schema: { type: "string" as const, example: "grocery" },
  },
};

/** A write's task with its `notice`, and the header, when it created a list. */
export function withNotice<T extends object>(c: Context, task: T, notice?: WriteNotice) {
  const created = notice?.listCreated;
  if (!created) return task;
  c.header("List-Created", created.name);
  return {
    ...task,
    notice: { listCreated: { ...created, message: listCreatedSentence(created, "PATCH or POST …/move with listId") } },
  };
}

export const CreatedTask = Task.extend({
  subtasks: z.array(TaskTreeRef).optional().meta({ description: "The subtasks created with it, when given." }),
  notice: Notice.optional(),
});
export const UpdatedTask = Task.extend({ notice: Notice.optional() });
