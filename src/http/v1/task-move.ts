import { createRoute, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import { etagOf } from "../../domain/tasks/etag";
import { TaskMove } from "../../domain/tasks/schemas";
import type { AppEnv } from "../../transport/env";
import { runFor } from "../../transport/auth";
import { errorResponses } from "../../transport/problem";
import { ETag, IdParam, ListCreatedHeader, UpdatedTask, withNotice } from "./task-parameters";

export const moveTaskRoute = createRoute({
  method: "post",
  path: "/tasks/{id}/move",
  operationId: "moveTask",
  summary: "Move a task",
  description: [
    "Puts a task somewhere else: `before` or `after` a sibling (it joins that task's list and parent), under another `parentId` (`\"\"`: the top level), or into another `listId` (its id or name; a subtask then leaves its parent). A new parent or list puts it last there. Its subtasks go with it. Only the task's own row changes (its `position`, a fractional index), and its subtasks' lists when it changes list.",
    "",
    "A subtask always shares its parent's list; tasks nest at most 4 levels; a task cannot go under itself or one of its subtasks: each is a 400 that says why. An open task moved under a completed one reopens it. `{}` leaves it where it is.",
  ].join("\n"),
  tags: ["Tasks"],
  security: [{ bearerAuth: [] }],
  request: { params: IdParam, body: { required: true, content: { "application/json": { schema: TaskMove } } } },
  responses: {
    200: {
      description: "The moved task.",
      headers: { ...ETag, ...ListCreatedHeader },
      content: { "application/json": { schema: UpdatedTask } },
    },
    ...errorResponses("validation_failed", "unauthorized", "max_required", "task_not_found", "payload_too_large"),
  },
});

const moveTask: RouteHandler<typeof moveTaskRoute, AppEnv> = async (c) => {
  const change = await runFor(c, "moveTask", { id: c.req.valid("param").id, move: c.req.valid("json") });
  c.header("ETag", etagOf(change.task));
  return c.json(withNotice(c, change.task, change.notice), 200);
};

/** With the other task routes, at both doors (registerTaskRoutes). */
export function registerMoveTaskRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(moveTaskRoute, moveTask);
}
