import * as z from "zod";
import { Task, Tombstone } from "../../domain/tasks/schemas";
import {
  Day,
  IdempotencyKey,
  LabelName,
  ListId,
  MAX_TASK_LABELS,
  SearchQuery,
  Since,
  TaskId,
} from "../../domain/tasks/values";

/** The parameters, headers and collection of the task routes (tasks.ts), as OpenAPI declares them. */

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
  listId: ListId.optional().openapi({ description: "Only tasks of this list." }),
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
