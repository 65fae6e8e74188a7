import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { MAX_IMPORT_TASKS } from "../../domain/import/plan";
import { ListName } from "../../domain/lists/schemas";
import { runFor } from "../../transport/auth";
import type { AppEnv } from "../../transport/env";
import { errorResponses } from "../../transport/problem";
import { readImportBody } from "./import-body";

export const ImportResult = z
  .object({
    imported: z
      .object({
        tasks: z.number().int().min(0).meta({ description: "Tasks written.", example: 42 }),
        lists: z.number().int().min(0).meta({ description: "Lists made.", example: 1 }),
        labels: z.number().int().min(0).meta({ description: "Labels made.", example: 3 }),
      })
      .meta({ description: "What the import wrote." }),
    skipped: z
      .array(
        z.object({
          line: z.number().int().min(1).meta({
            description: "The CSV's line, or for an export the task's place in `tasks` (1-based).",
            example: 7,
          }),
          reason: z.string().meta({
            description: "Why it was not imported.",
            example: 'DATE "when pigs fly" could not be read, so the task has no due date',
          }),
        }),
      )
      .meta({
        description: "What was not imported (a task already imported, a date that could not be read), and why.",
        example: [{ line: 7, reason: 'DATE "when pigs fly" could not be read, so the task has no due date' }],
      }),
  })
  .meta({ id: "ImportResult", description: "What an import wrote, and what it skipped." });

// Plain OpenAPI schemas, not zod: the route reads its body itself, within 5 MB (import-body.ts).
const ExportFile = {
  type: "object",
  description:
    "This service's own export (`GET /account/export`, `format: todo-export/2`): its lists, labels and tasks are imported with their ids; the account, keys, sessions and connections in it are not.",
} as const;
const TodoistCsv = {
  type: "string",
  description:
    "A Todoist CSV project export: columns TYPE, CONTENT, DESCRIPTION, PRIORITY, INDENT, DATE, DATE_LANG, TIMEZONE (others ignored). Its tasks go to one list, named by `list` or the file's name.",
} as const;

export const importTasksRoute = createRoute({
  method: "post",
  path: "/import",
  operationId: "importTasks",
  summary: "Import tasks from a file",
  description: [
    "Imports this service's own export (`application/json`) or a Todoist CSV project export (`text/csv`): all or nothing, in one transaction. A row that cannot be read is 400 with its line, and nothing is written.",
    "",
    `**Limits.** At most 5 MB and ${MAX_IMPORT_TASKS.toLocaleString("en")} tasks a request: 413 \`payload_too_large\` says which.`,
    "",
    "**Idempotent.** Each task keeps the export's id, or gets one derived from the file and its line: importing the same file again adds nothing, and its tasks are listed in `skipped` as already imported.",
    "",
    "**Todoist.** INDENT makes subtasks; `@label` words in CONTENT become labels; PRIORITY 1 (p1) is priority 4 and 4 is 1 (empty: 1); `note` rows go into the notes of the task above; a `section` row gives each task below it, up to the next section, a label named after the section; DATE in English (`Dec 24`, `tomorrow 3pm`, `every monday`) becomes `due` and `repeat`, and one that cannot be read is reported in `skipped`, the task imported without it.",
  ].join("\n"),
  tags: ["Import"],
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      list: ListName.optional().meta({
        description:
          "CSV only: the list the tasks go to, by name or id (made if there is none). Default: the file's name from `Content-Disposition`.",
        example: "Work",
      }),
    }),
    body: {
      required: true,
      content: { "application/json": { schema: ExportFile }, "text/csv": { schema: TodoistCsv } },
    },
  },
  responses: {
    200: { description: "What was imported and skipped.", content: { "application/json": { schema: ImportResult } } },
    ...errorResponses("validation_failed", "unauthorized", "max_required", "payload_too_large"),
  },
});

export function registerImportRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(importTasksRoute, async (c) => {
    const file = await readImportBody(c, c.req.valid("query").list);
    const { imported, skipped } = await runFor(c, "importTasks", file);
    return c.json({ imported, skipped }, 200);
  });
}
