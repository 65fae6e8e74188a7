import { createRoute, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import * as z from "zod";
import { etagOf } from "../../domain/tasks/etag";
import { Task, TaskInput, TaskPatch, TaskTreeRef } from "../../domain/tasks/schemas";
import type { AppEnv } from "../../transport/env";
import { runFor } from "../../transport/auth";
import { errorResponses } from "../../transport/problem";
import { absoluteUrl } from "../../transport/public-origin";
import { registerMoveTaskRoute } from "./task-move";
import {
  CreatedTask,
  ETag,
  IdempotencyHeader,
  IdParam,
  IfMatchHeader,
  ListCreatedHeader,
  ListQuery,
  SubtasksQuery,
  TaskCollection,
  UpdatedTask,
  withNotice,
} from "./task-parameters";

const security = [{ bearerAuth: [] }];
const authErrors = ["unauthorized", "max_required"] as const;

/** The path of a task, in this request's /tasks collection. */
const taskPath = (c: Context, id: string) => `${c.req.path.replace(/\/tasks(\/.*)?$/, "/tasks")}/${id}`;

export const listTasksRoute = createRoute({
  method: "get",
  path: "/tasks",
  operationId: "listTasks",
  summary: "List tasks",
  description: [
    "Lists the caller's live tasks.",
    "",
    "**Pages.** Without `limit`, every matching task is returned in one response, however many there are, ordered by `updatedAt`, then `id`: a client that does not page never loses tasks. With `limit` (1 to 500), tasks come in creation order (by `id`) and `meta.nextCursor` is present while more remain: repeat the same query with `cursor` set to it until it is absent. A task changed, created or deleted while you page is neither skipped nor repeated; every page carries the first page's `meta.serverTime`, and such changes also reach you on your next `since` sync.",
    "",
    "**Sync loop.** 1. List without `since` (all pages) and keep `meta.serverTime`. 2. Later, list with `since` set to that value (inclusive): you get the tasks changed since then, and in `meta.deleted` the ones deleted since then; keep the new `meta.serverTime`. 3. Deleted tasks are remembered for 90 days: a `since` older than that is 410 `sync_expired`; drop your local copy and go back to step 1.",
  ].join("\n"),
  tags: ["Tasks"],
  security,
  request: { query: ListQuery },
  responses: {
    200: { description: "The tasks.", content: { "application/json": { schema: TaskCollection } } },
    ...errorResponses("validation_failed", ...authErrors, "sync_expired"),
  },
});

export const createTaskRoute = createRoute({
  method: "post",
  path: "/tasks",
  operationId: "createTask",
  summary: "Create a task",
  description:
    "Creates a task. Answers 201 with the task, its URL in `Location` and its `ETag`. To retry safely, send an `Idempotency-Key`: the same key with the same body within 24 hours answers with the original 201 response (same task, same body, plus `Idempotent-Replayed: true`) and creates nothing; the same key with a different body is 422 `idempotency_key_reused`. Keys are per account.",
  tags: ["Tasks"],
  security,
  request: {
    headers: IdempotencyHeader,
    body: { required: true, content: { "application/json": { schema: TaskInput } } },
  },
  responses: {
    201: {
      description: "The created task, or the replay of the first response to this `Idempotency-Key`.",
      headers: {
        Location: { description: "URL of the task.", schema: { type: "string" } },
        ...ETag,
        "Idempotent-Replayed": {
          description: "`true` when this is a replay of an earlier request with the same `Idempotency-Key`.",
          schema: { type: "string", enum: ["true"] },
        },
        ...ListCreatedHeader,
      },
      content: { "application/json": { schema: CreatedTask } },
    },
    ...errorResponses("validation_failed", ...authErrors, "payload_too_large", "idempotency_key_reused"),
  },
});

export const getTaskRoute = createRoute({
  method: "get",
  path: "/tasks/{id}",
  operationId: "getTask",
  summary: "Get a task",
  description:
    "Returns one task with its `ETag`; with `subtasks=true`, its subtasks at every level (`subtasks`, in order). Another account's task is reported as not found.",
  tags: ["Tasks"],
  security,
  request: { params: IdParam, query: SubtasksQuery },
  responses: {
    200: { description: "The task.", headers: ETag, content: { "application/json": { schema: TaskTreeRef } } },
    ...errorResponses(...authErrors, "task_not_found"),
  },
});

export const updateTaskRoute = createRoute({
  method: "patch",
  path: "/tasks/{id}",
  operationId: "updateTask",
  summary: "Update a task",
  description: [
    "Changes the fields sent. `completed: true` completes the task. `reminder: null` clears the reminder; an empty string clears `due`, `repeat`, `notes` or `listId`. `{}` returns the task unchanged.",
    "",
    '**Repeating tasks.** Completing an open task that has `repeat` also, in the same atomic step, clears its `repeat` (so reopening it cannot spawn twice) and creates the next occurrence: a new task with the same title, notes, listId, important and repeat, `due` advanced by the rule from the previous `due` (or from the completion day when there was none), `reminder` at the same distance before `due`. Times are computed in the account\'s time zone (`PATCH /account`), so 09:00 stays 09:00 local across daylight-saving changes. The completed occurrence counts as one instance of the rule, so `COUNT=n` continues as `COUNT=n-1`; when COUNT or UNTIL is exhausted no next occurrence is created. The response body is the completed task; the next occurrence is linked in `Link: </api/v1/tasks/{nextId}>; rel="next-occurrence"`.',
    "",
    "**Concurrency.** Send `If-Match` with the `ETag` you read to change only that version: a stale tag is 412 `precondition_failed` and nothing changes.",
  ].join("\n"),
  tags: ["Tasks"],
  security,
  request: {
    params: IdParam,
    headers: IfMatchHeader,
    body: { required: true, content: { "application/json": { schema: TaskPatch } } },
  },
  responses: {
    200: {
      description: "The updated task.",
      headers: {
        ...ETag,
        Link: {
          description:
            'Present when completing a repeating task created its next occurrence: `</api/v1/tasks/{nextId}>; rel="next-occurrence"`.',
          schema: { type: "string" },
        },
        ...ListCreatedHeader,
      },
      content: { "application/json": { schema: UpdatedTask } },
    },
    ...errorResponses("validation_failed", ...authErrors, "task_not_found", "precondition_failed", "payload_too_large"),
  },
});

export const deleteTaskRoute = createRoute({
  method: "delete",
  path: "/tasks/{id}",
  operationId: "deleteTask",
  summary: "Delete a task",
  description:
    "Deletes a task. Sync clients learn about it through `meta.deleted` of a `since` listing for 90 days. A second delete is 404. With `If-Match`, a stale `ETag` is 412 `precondition_failed` and nothing is deleted.",
  tags: ["Tasks"],
  security,
  request: { params: IdParam, headers: IfMatchHeader },
  responses: {
    204: { description: "Deleted." },
    ...errorResponses(...authErrors, "task_not_found", "precondition_failed"),
  },
});

/** What PATCH answers a session (the tasks page) instead of the task alone: see `updateTask` below. */
export const TaskChange = z.object({
  task: Task,
  next: Task.optional().meta({
    description: "When completing a repeating task created its next occurrence: that task.",
  }),
});

/**
 * Each handler: validated input → one call to the caller's account object, which judges the credential
 * and runs the verb → response. One set for both doors: /api/v1 (the API key) and the tasks page's
 * /account/tasks (the session), each registered under its access (account.ts), which sets the caller.
 */
const listTasks: RouteHandler<typeof listTasksRoute, AppEnv> = async (c) => {
  const page = await runFor(c, "listTasks", c.req.valid("query"));
  const { tasksJson, count, serverTime, deleted, nextCursor, unknownList } = page;
  const meta = JSON.stringify({
    count,
    serverTime,
    deleted,
    nextCursor,
    hint: unknownList && unknownListHint(unknownList),
  });
  // The tasks arrive as one JSON text built in the account's object (taskJsonSql) and are sent as they are:
  // typed as the route's JSON response, serialised by SQLite instead of c.json.
  return c.body(`{"data":${tasksJson},"meta":${meta}}`, 200, {
    "Content-Type": "application/json",
  }) as unknown as TypedResponse<z.infer<typeof TaskCollection>, 200, "json">;
};

const createTask: RouteHandler<typeof createTaskRoute, AppEnv> = async (c) => {
  const idempotencyKey = c.req.valid("header")["idempotency-key"];
  const { task, replayed, notice } = await runFor(c, "createTask", { input: c.req.valid("json"), idempotencyKey });
  c.header("Location", absoluteUrl(c.env, c.req.url, taskPath(c, task.id)));
  c.header("ETag", etagOf(task));
  if (replayed) c.header("Idempotent-Replayed", "true");
  return c.json(withNotice(c, task, notice) as z.infer<typeof CreatedTask>, 201);
};

const getTask: RouteHandler<typeof getTaskRoute, AppEnv> = async (c) => {
  const task = await runFor(c, "getTask", { ...c.req.valid("param"), ...c.req.valid("query") });
  c.header("ETag", etagOf(task));
  return c.json(task, 200);
};

const updateTask: RouteHandler<typeof updateTaskRoute, AppEnv> = async (c) => {
  const ifMatch = c.req.valid("header")["if-match"];
  const { id } = c.req.valid("param");
  const change = await runFor(c, "updateTask", { id, patch: c.req.valid("json"), ifMatch });
  c.header("ETag", etagOf(change.task));
  if (change.next) c.header("Link", `<${taskPath(c, change.next.id)}>; rel="next-occurrence"`);
  // The tasks page shows a completed repeating task's next occurrence at once, so a session gets it in
  // the body (`{ task, next }`, as the page has always read it) instead of following the Link.
  if (c.var.caller.credential.kind === "session") return c.json(change, 200) as never;
  return c.json(withNotice(c, change.task, change.notice), 200);
};

const deleteTask: RouteHandler<typeof deleteTaskRoute, AppEnv> = async (c) => {
  const ifMatch = c.req.valid("header")["if-match"];
  await runFor(c, "deleteTask", { id: c.req.valid("param").id, ifMatch });
  return c.body(null, 204);
};

/** Validation failures still answer 401/403 first: the access's hook (access.ts), set once for the group. */
export function registerTaskRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listTasksRoute, listTasks);
  app.openapi(createTaskRoute, createTask);
  app.openapi(getTaskRoute, getTask);
  app.openapi(updateTaskRoute, updateTask);
  app.openapi(deleteTaskRoute, deleteTask);
  registerMoveTaskRoute(app);
}

/** meta.hint of a listing filtered by a listId that names no list. */
const unknownListHint = ({ closest }: { closest: string[] }) =>
  `No list has this listId as its id or its name, so no task matched.${closest.length ? ` Did you mean ${closest.map((n) => `"${n}"`).join(" or ")}?` : ""} GET /api/v1/lists gives the lists.`;
