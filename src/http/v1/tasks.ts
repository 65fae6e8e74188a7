import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import {
  createTask,
  deleteTask,
  getTask,
  listTasks,
  updateTask,
} from "../../domain/tasks/service";
import { Since, Task, TaskId, TaskInput, TaskPatch, Tombstone, ListId } from "../../domain/tasks/schemas";
import type { AppEnv } from "../../env";
import { errorResponses } from "../problem";

const security = [{ bearerAuth: [] }];
const authErrors = ["unauthorized", "max_required"] as const;

const TaskCollection = z
  .object({
    data: z.array(Task),
    meta: z.object({
      count: z.number().int().meta({ description: "Number of tasks in `data`.", example: 1 }),
      serverTime: z.string().meta({
        description: "The database clock when the list was read. Pass it as `since` on the next sync.",
        example: "2026-11-22T10:15:30.123Z",
      }),
      deleted: z.array(Tombstone).optional().meta({ description: "With `since`: tasks deleted at or after it." }),
      nextCursor: z.string().optional().meta({ description: "With `limit`: pass as `cursor` for the next page; absent on the last page." }),
    }),
  })
  .openapi("TaskCollection");

const ListQuery = z.object({
  since: Since.optional(),
  completed: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ description: "Only completed (`true`) or open (`false`) tasks.", example: "false" }),
  listId: ListId.optional().openapi({ description: "Only tasks of this list." }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .openapi({ description: "Page size, 1 to 500. Without it, every matching task is returned in one response.", example: 100 }),
  cursor: z.string().max(1000).optional().openapi({ description: "`meta.nextCursor` of the previous page." }),
});

const IdParam = z.object({ id: TaskId.openapi({ param: { name: "id", in: "path" } }) });

export const listTasksRoute = createRoute({
  method: "get",
  path: "/tasks",
  operationId: "listTasks",
  summary: "List tasks",
  description:
    "Lists the caller's live tasks ordered by `updatedAt`, then `id`. For sync, pass the previous `meta.serverTime` as `since` (inclusive): you get the tasks changed since then and, in `meta.deleted`, the ones deleted since then.",
  tags: ["Tasks"],
  security,
  request: { query: ListQuery },
  responses: {
    200: { description: "The tasks.", content: { "application/json": { schema: TaskCollection } } },
    ...errorResponses("validation_failed", ...authErrors),
  },
});

export const createTaskRoute = createRoute({
  method: "post",
  path: "/tasks",
  operationId: "createTask",
  summary: "Create a task",
  description: "Creates a task. Answers 201 with the task and its URL in `Location`.",
  tags: ["Tasks"],
  security,
  request: { body: { required: true, content: { "application/json": { schema: TaskInput } } } },
  responses: {
    201: { description: "The created task.", content: { "application/json": { schema: Task } } },
    ...errorResponses("validation_failed", ...authErrors, "payload_too_large"),
  },
});

export const getTaskRoute = createRoute({
  method: "get",
  path: "/tasks/{id}",
  operationId: "getTask",
  summary: "Get a task",
  description: "Returns one task. Another account's task is reported as not found.",
  tags: ["Tasks"],
  security,
  request: { params: IdParam },
  responses: {
    200: { description: "The task.", content: { "application/json": { schema: Task } } },
    ...errorResponses(...authErrors, "task_not_found"),
  },
});

export const updateTaskRoute = createRoute({
  method: "patch",
  path: "/tasks/{id}",
  operationId: "updateTask",
  summary: "Update a task",
  description:
    "Changes the fields sent. `completed: true` completes the task. `reminder: null` clears the reminder; an empty string clears `due`, `repeat`, `notes` or `listId`. `{}` returns the task unchanged.",
  tags: ["Tasks"],
  security,
  request: { params: IdParam, body: { required: true, content: { "application/json": { schema: TaskPatch } } } },
  responses: {
    200: { description: "The updated task.", content: { "application/json": { schema: Task } } },
    ...errorResponses("validation_failed", ...authErrors, "task_not_found", "payload_too_large"),
  },
});

export const deleteTaskRoute = createRoute({
  method: "delete",
  path: "/tasks/{id}",
  operationId: "deleteTask",
  summary: "Delete a task",
  description: "Deletes a task. Sync clients learn about it through `meta.deleted` of a `since` listing. A second delete is 404.",
  tags: ["Tasks"],
  security,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted." },
    ...errorResponses(...authErrors, "task_not_found"),
  },
});

export function registerTaskRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listTasksRoute, async (c) => {
    const page = await listTasks(c.var, c.req.valid("query"));
    const meta = { count: page.tasks.length, serverTime: page.serverTime, deleted: page.deleted, nextCursor: page.nextCursor };
    return c.json({ data: page.tasks, meta }, 200);
  });

  app.openapi(createTaskRoute, async (c) => {
    const task = await createTask(c.var, c.req.valid("json"));
    c.header("Location", new URL(`${c.req.path}/${task.id}`, c.req.url).href);
    return c.json(task, 201);
  });

  app.openapi(getTaskRoute, async (c) => c.json(await getTask(c.var, c.req.valid("param").id), 200));

  app.openapi(updateTaskRoute, async (c) => {
    const { task } = await updateTask(c.var, c.req.valid("param").id, c.req.valid("json"));
    return c.json(task, 200);
  });

  app.openapi(deleteTaskRoute, async (c) => {
    await deleteTask(c.var, c.req.valid("param").id);
    return c.body(null, 204);
  });
}
