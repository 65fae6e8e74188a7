import { createRoute, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import * as z from "zod";
import { Label, LabelId, LabelInput, LabelPatch } from "../../domain/labels/schemas";
import type { AppEnv } from "../../transport/env";
import { runFor } from "../../transport/auth";
import { errorResponses } from "../../transport/problem";
import { absoluteUrl } from "../../transport/public-origin";

const security = [{ bearerAuth: [] }];
const authErrors = ["unauthorized", "max_required"] as const;

export const LabelCollection = z
  .object({
    data: z.array(Label).meta({ description: "The labels, by name." }),
    meta: z
      .object({ count: z.number().int().meta({ description: "Number of labels in `data`.", example: 2 }) })
      .meta({ description: "About the labels." }),
  })
  .openapi("LabelCollection", { description: "The account's labels." });

export const IdParam = z.object({
  id: LabelId.openapi({ param: { name: "id", in: "path" }, description: "The label's id." }),
});

export const listLabelsRoute = createRoute({
  method: "get",
  path: "/labels",
  operationId: "listLabels",
  summary: "List labels",
  description:
    "Lists the caller's labels by name, each with `taskCount` (live tasks that carry it). Tasks carry labels by name in `labels`; to see a label's tasks, call `listTasks` with `label`.",
  tags: ["Labels"],
  security,
  responses: {
    200: { description: "The labels.", content: { "application/json": { schema: LabelCollection } } },
    ...errorResponses(...authErrors),
  },
});

export const createLabelRoute = createRoute({
  method: "post",
  path: "/labels",
  operationId: "createLabel",
  summary: "Create a label",
  description:
    "Creates a label, with an optional colour, and answers 201 with it and its URL in `Location`. A name another label has, ignoring case, is 409 `label_exists`. Labels also come into being when a task names one no label has.",
  tags: ["Labels"],
  security,
  request: { body: { required: true, content: { "application/json": { schema: LabelInput } } } },
  responses: {
    201: {
      description: "The created label.",
      headers: { Location: { description: "URL of the label.", schema: { type: "string" } } },
      content: { "application/json": { schema: Label } },
    },
    ...errorResponses("validation_failed", ...authErrors, "payload_too_large", "label_exists"),
  },
});

export const updateLabelRoute = createRoute({
  method: "patch",
  path: "/labels/{id}",
  operationId: "updateLabel",
  summary: "Rename or recolour a label",
  description:
    "Changes the label's name or colour. A rename shows on every task with the label at once: each one's `labels` and `updatedAt` change, so `since` syncs see it. A name another label has, ignoring case, is 409 `label_exists`. `{}` returns the label unchanged. Another account's label is 404 `label_not_found`.",
  tags: ["Labels"],
  security,
  request: { params: IdParam, body: { required: true, content: { "application/json": { schema: LabelPatch } } } },
  responses: {
    200: { description: "The label.", content: { "application/json": { schema: Label } } },
    ...errorResponses("validation_failed", ...authErrors, "label_not_found", "label_exists", "payload_too_large"),
  },
});

export const deleteLabelRoute = createRoute({
  method: "delete",
  path: "/labels/{id}",
  operationId: "deleteLabel",
  summary: "Delete a label",
  description:
    "Deletes the label and takes it off every task that has it; the tasks stay. Each such task's `updatedAt` moves, so `since` syncs see it without the label. A second delete is 404 `label_not_found`.",
  tags: ["Labels"],
  security,
  request: { params: IdParam },
  responses: {
    204: { description: "Deleted, and off every task." },
    ...errorResponses(...authErrors, "label_not_found"),
  },
});

/**
 * Each handler: validated input → one call to the caller's account object (the label verb) → response.
 * Served to the API key (/api/v1/labels) and to the tasks page's session (/account/labels), as the list routes.
 */
const listLabels: RouteHandler<typeof listLabelsRoute, AppEnv> = async (c) => {
  const { labels } = await runFor(c, "listLabels", undefined);
  return c.json({ data: labels, meta: { count: labels.length } }, 200);
};

const createLabel: RouteHandler<typeof createLabelRoute, AppEnv> = async (c) => {
  const label = await runFor(c, "createLabel", c.req.valid("json"));
  const path = `${c.req.path.replace(/\/labels\/?$/, "/labels")}/${label.id}`;
  c.header("Location", absoluteUrl(c.env, c.req.url, path));
  return c.json(label, 201);
};

const updateLabel: RouteHandler<typeof updateLabelRoute, AppEnv> = async (c) => {
  const label = await runFor(c, "updateLabel", { id: c.req.valid("param").id, patch: c.req.valid("json") });
  return c.json(label, 200);
};

const deleteLabel: RouteHandler<typeof deleteLabelRoute, AppEnv> = async (c) => {
  await runFor(c, "deleteLabel", c.req.valid("param"));
  return c.body(null, 204);
};

export function registerLabelRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listLabelsRoute, listLabels);
  app.openapi(createLabelRoute, createLabel);
  app.openapi(updateLabelRoute, updateLabel);
  app.openapi(deleteLabelRoute, deleteLabel);
}
