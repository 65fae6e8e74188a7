import { createRoute, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import * as z from "zod";
import { List, ListInput, ListPatch, ListTombstone } from "../../domain/lists/schemas";
import { ListId, Since } from "../../domain/tasks/values";
import { dateIn } from "../../domain/tasks/wall-clock";
import { LocalDayMeta } from "./task-parameters";
import type { AppEnv } from "../../transport/env";
import { runFor } from "../../transport/auth";
import { errorResponses } from "../../transport/problem";
import { absoluteUrl } from "../../transport/public-origin";

const security = [{ bearerAuth: [] }];
const authErrors = ["unauthorized", "max_required"] as const;

export const ListCollection = z
  .object({
    data: z.array(List).meta({ description: "The lists, by name." }),
    meta: z
      .object({
        count: z.number().int().meta({ description: "Number of lists in `data`.", example: 2 }),
        serverTime: z.string().meta({
          description: "The database clock when the lists were read. Pass it as `since` on the next sync.",
          example: "2026-11-22T10:15:30.123Z",
        }),
        ...LocalDayMeta.shape,
        deleted: z.array(ListTombstone).optional().meta({ description: "With `since`: lists deleted at or after it." }),
      })
      .meta({ description: "About the lists: how many, the server clock and deletions." }),
  })
  .openapi("ListCollection", { description: "The account's lists with their metadata." });

export const ListQuery = z.object({
  since: Since.optional().openapi({
    description:
      "Only lists changed at or after this instant (inclusive): renamed, created, or whose counts moved. Pass the previous response's `meta.serverTime`. Deleted lists come back in `meta.deleted`.",
    example: "2026-11-22T10:15:30.123Z",
  }),
});

export const IdParam = z.object({
  id: ListId.openapi({ param: { name: "id", in: "path" }, description: "The list's id.", example: "groceries" }),
});

export const listListsRoute = createRoute({
  method: "get",
  path: "/lists",
  operationId: "listLists",
  summary: "List lists",
  description:
    "Lists the caller's lists by name, each with `openCount` (tasks not completed) and `taskCount`. A task's `listId` is a list's `id`; to see a list's tasks, call `listTasks` with `listId`. With `since`, only lists changed since then, and `meta.deleted` with the lists deleted since then (kept 90 days; an older `since` is 410 `sync_expired`).",
  tags: ["Lists"],
  security,
  request: { query: ListQuery },
  responses: {
    200: { description: "The lists.", content: { "application/json": { schema: ListCollection } } },
    ...errorResponses("validation_failed", ...authErrors, "sync_expired"),
  },
});

export const createListRoute = createRoute({
  method: "post",
  path: "/lists",
  operationId: "createList",
  summary: "Create a list",
  description:
    "Creates an empty list and answers 201 with it and its URL in `Location`. The server chooses the `id` unless the body gives one. A name already used by another list, ignoring case, or an id in use is 409 `list_exists`. Lists also come into being when a task is created or moved with a `listId` that names none: such a list is named after its id (or `<id> (2)` when that name is taken).",
  tags: ["Lists"],
  security,
  request: { body: { required: true, content: { "application/json": { schema: ListInput } } } },
  responses: {
    201: {
      description: "The created list.",
      headers: { Location: { description: "URL of the list.", schema: { type: "string" } } },
      content: { "application/json": { schema: List } },
    },
    ...errorResponses("validation_failed", ...authErrors, "payload_too_large", "list_exists"),
  },
});

export const updateListRoute = createRoute({
  method: "patch",
  path: "/lists/{id}",
  operationId: "updateList",
  summary: "Rename a list",
  description:
    "Changes the list's name; its id, and so its tasks' `listId`, stay. A name used by another list, ignoring case, is 409 `list_exists`. `{}` returns the list unchanged. Another account's list is 404 `list_not_found`. To move a task to another list, PATCH the task's `listId`.",
  tags: ["Lists"],
  security,
  request: { params: IdParam, body: { required: true, content: { "application/json": { schema: ListPatch } } } },
  responses: {
    200: { description: "The list.", content: { "application/json": { schema: List } } },
    ...errorResponses("validation_failed", ...authErrors, "list_not_found", "list_exists", "payload_too_large"),
  },
});

export const deleteListRoute = createRoute({
  method: "delete",
  path: "/lists/{id}",
  operationId: "deleteList",
  summary: "Delete a list and its tasks",
  description:
    "Deletes the list and every task in it, in one step. Sync clients learn both: the list through `meta.deleted` of `listLists` with `since`, its tasks through `meta.deleted` of `listTasks` with `since`. A second delete is 404 `list_not_found`.",
  tags: ["Lists"],
  security,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted, with its tasks." },
    ...errorResponses(...authErrors, "list_not_found"),
  },
});

/**
 * Each handler: validated input → one call to the caller's account object (the list verb) → response.
 * Served to the API key (/api/v1/lists) and to the tasks page's session (/account/lists), as the task routes.
 */
const listLists: RouteHandler<typeof listListsRoute, AppEnv> = async (c) => {
  const page = await runFor(c, "listLists", c.req.valid("query"));
  const { serverTime, timeZone } = page;
  const today = dateIn(Date.parse(serverTime), timeZone);
  const meta = { count: page.lists.length, serverTime, timeZone, today, deleted: page.deleted };
  return c.json({ data: page.lists, meta }, 200);
};

const createList: RouteHandler<typeof createListRoute, AppEnv> = async (c) => {
  const list = await runFor(c, "createList", c.req.valid("json"));
  const path = `${c.req.path.replace(/\/lists\/?$/, "/lists")}/${list.id}`;
  c.header("Location", absoluteUrl(c.env, c.req.url, path));
  return c.json(list, 201);
};

const updateList: RouteHandler<typeof updateListRoute, AppEnv> = async (c) => {
  const list = await runFor(c, "updateList", { id: c.req.valid("param").id, patch: c.req.valid("json") });
  return c.json(list, 200);
};

const deleteList: RouteHandler<typeof deleteListRoute, AppEnv> = async (c) => {
  await runFor(c, "deleteList", c.req.valid("param"));
  return c.body(null, 204);
};

export function registerListRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listListsRoute, listLists);
  app.openapi(createListRoute, createList);
  app.openapi(updateListRoute, updateList);
  app.openapi(deleteListRoute, deleteList);
}
