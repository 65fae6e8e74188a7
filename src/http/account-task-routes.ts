import { createRoute, type Hook, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import * as z from "zod";
import { etagOf } from "../domain/tasks/etag";
import { Task, TaskInput, TaskPatch } from "../domain/tasks/schemas";
import type { AppEnv } from "../env";
import { json, session } from "./account-schemas";
import { accountTasks, authorizeMember } from "./account-tasks";
import { errorResponses } from "./problem";
import { defaultHook } from "./validation";
import { IdempotencyHeader, IdParam, IfMatchHeader, ListQuery, TaskCollection } from "./v1/task-parameters";

/**
 * The /tasks page's task routes: the REST task operations for a signed-in person (a session token, which
 * /api/v1 refuses). Their inputs are REST's own schemas; the verbs are called in account-tasks.ts.
 * Guards come from the SESSION access (createAccountApp): origin policy, no-store, session, the
 * account's rate limit, JSON bodies.
 */

const memberErrors = ["unauthorized", "max_required", "rate_limited"] as const;

/** Validation hook: a person without Max hears 403 before 400, as a key does on REST. */
export function memberBeforeRejecting<T>(
  result: Parameters<Hook<T, AppEnv, string, unknown>>[0],
  c: Context<AppEnv>,
): Promise<never> | undefined {
  if (result.success) return undefined;
  return (async () => {
    await authorizeMember(c);
    defaultHook(result, c);
    throw new Error("unreachable: defaultHook throws on a failed validation");
  })();
}

const TaskChange = z.object({
  task: Task,
  next: Task.optional().meta({
    description: "When completing a repeating task created its next occurrence: that task.",
  }),
});

export function registerAccountTaskRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/tasks",
      operationId: "listAccountTasks",
      summary: "The signed-in person's tasks (the /tasks page), as GET /api/v1/tasks lists them",
      security: session,
      request: { query: ListQuery },
      responses: {
        200: { description: "The tasks.", ...json(TaskCollection) },
        ...errorResponses("validation_failed", ...memberErrors, "sync_expired"),
      },
    }),
    async (c) => {
      const page = await accountTasks.list(c, c.req.valid("query"));
      const meta = {
        count: page.count,
        serverTime: page.serverTime,
        deleted: page.deleted,
        nextCursor: page.nextCursor,
      };
      // As on REST: the tasks arrive as one JSON text from D1 and are sent as they are.
      const body = `{"data":${page.tasksJson},"meta":${JSON.stringify(meta)}}`;
      return c.body(body, 200, { "Content-Type": "application/json" }) as unknown as TypedResponse<
        z.infer<typeof TaskCollection>,
        200,
        "json"
      >;
    },
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/tasks",
      operationId: "createAccountTask",
      summary: "Create a task from the /tasks page",
      security: session,
      request: { headers: IdempotencyHeader, body: { required: true, ...json(TaskInput) } },
      responses: {
        201: {
          description: "The created task (or the replay of the first answer to this `Idempotency-Key`).",
          ...json(Task),
        },
        ...errorResponses("validation_failed", ...memberErrors, "payload_too_large", "idempotency_key_reused"),
      },
    }),
    async (c) => {
      const { task } = await accountTasks.create(c, c.req.valid("json"), c.req.valid("header")["idempotency-key"]);
      c.header("ETag", etagOf(task));
      return c.json(task, 201);
    },
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/account/tasks/{id}",
      operationId: "getAccountTask",
      summary: "One task, to reload it after a 412",
      security: session,
      request: { params: IdParam },
      responses: {
        200: { description: "The task.", ...json(Task) },
        ...errorResponses("validation_failed", ...memberErrors, "task_not_found"),
      },
    }),
    async (c) => {
      const task = await accountTasks.get(c, c.req.valid("param").id);
      c.header("ETag", etagOf(task));
      return c.json(task, 200);
    },
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/account/tasks/{id}",
      operationId: "updateAccountTask",
      summary: "Change, complete or reopen a task from the /tasks page",
      description:
        "As PATCH /api/v1/tasks/{id}, with the next occurrence of a completed repeating task in the body (`next`) rather than a Link header. `If-Match` with a stale ETag is 412 and nothing changes.",
      security: session,
      request: { params: IdParam, headers: IfMatchHeader, body: { required: true, ...json(TaskPatch) } },
      responses: {
        200: { description: "The updated task, and its next occurrence if one was created.", ...json(TaskChange) },
        ...errorResponses(
          "validation_failed",
          ...memberErrors,
          "task_not_found",
          "precondition_failed",
          "payload_too_large",
        ),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const change = await accountTasks.update(c, id, c.req.valid("json"), c.req.valid("header")["if-match"]);
      c.header("ETag", etagOf(change.task));
      return c.json(change, 200);
    },
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/tasks/{id}",
      operationId: "deleteAccountTask",
      summary: "Delete a task from the /tasks page",
      security: session,
      request: { params: IdParam, headers: IfMatchHeader },
      responses: {
        204: { description: "Deleted; `since` syncs report it in `meta.deleted`." },
        ...errorResponses("validation_failed", ...memberErrors, "task_not_found", "precondition_failed"),
      },
    }),
    async (c) => {
      await accountTasks.remove(c, c.req.valid("param").id, c.req.valid("header")["if-match"]);
      return c.body(null, 204);
    },
    memberBeforeRejecting,
  );
}
