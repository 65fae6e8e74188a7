import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { List, ListInput, ListPatch } from "../domain/lists/schemas";
import type { AppEnv } from "../env";
import { json, session } from "./account-schemas";
import { memberBeforeRejecting } from "./account-task-routes";
import { accountLists } from "./account-tasks";
import { errorResponses } from "./problem";
import { IdParam, ListCollection, ListQuery } from "./v1/lists";

/**
 * The /tasks page's list routes: the REST list operations for a signed-in person, with REST's own
 * schemas; the verbs are called in account-tasks.ts. Guards: the SESSION access (createAccountApp).
 */

const memberErrors = ["unauthorized", "max_required", "rate_limited"] as const;

export function registerAccountListRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/lists",
      operationId: "listAccountLists",
      summary: "The signed-in person's lists with their counts, as GET /api/v1/lists lists them",
      security: session,
      request: { query: ListQuery },
      responses: {
        200: { description: "The lists.", ...json(ListCollection) },
        ...errorResponses("validation_failed", ...memberErrors, "sync_expired"),
      },
    }),
    async (c) => {
      const page = await accountLists.list(c, c.req.valid("query"));
      const meta = { count: page.lists.length, serverTime: page.serverTime, deleted: page.deleted };
      return c.json({ data: page.lists, meta }, 200);
    },
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/lists",
      operationId: "createAccountList",
      summary: "Create a list from the /tasks page",
      security: session,
      request: { body: { required: true, ...json(ListInput) } },
      responses: {
        201: { description: "The created list.", ...json(List) },
        ...errorResponses("validation_failed", ...memberErrors, "payload_too_large", "list_exists"),
      },
    }),
    async (c) => c.json(await accountLists.create(c, c.req.valid("json")), 201),
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/account/lists/{id}",
      operationId: "updateAccountList",
      summary: "Rename a list from the /tasks page",
      security: session,
      request: { params: IdParam, body: { required: true, ...json(ListPatch) } },
      responses: {
        200: { description: "The list.", ...json(List) },
        ...errorResponses("validation_failed", ...memberErrors, "list_not_found", "list_exists", "payload_too_large"),
      },
    }),
    async (c) => c.json(await accountLists.update(c, c.req.valid("param").id, c.req.valid("json")), 200),
    memberBeforeRejecting,
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/lists/{id}",
      operationId: "deleteAccountList",
      summary: "Delete a list and its tasks from the /tasks page",
      security: session,
      request: { params: IdParam },
      responses: {
        204: { description: "Deleted, with its tasks." },
        ...errorResponses("validation_failed", ...memberErrors, "list_not_found"),
      },
    }),
    async (c) => {
      await accountLists.remove(c, c.req.valid("param").id);
      return c.body(null, 204);
    },
    memberBeforeRejecting,
  );
}
