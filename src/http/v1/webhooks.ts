import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { allowsLoopback } from "../../domain/webhooks/address";
import { Delivery, NewWebhook, Webhook, WebhookInput, WebhookPatch } from "../../domain/webhooks/schemas";
import type { AppEnv } from "../../transport/env";
import { runFor } from "../../transport/auth";
import { errorResponses } from "../../transport/problem";
import { absoluteUrl } from "../../transport/public-origin";

const security = [{ bearerAuth: [] }];
const authErrors = ["unauthorized", "max_required"] as const;
const tags = ["Webhooks"];
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

const IdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({
      param: { name: "id", in: "path" },
      description: "The webhook's id.",
      example: "0193c4e8-8a2b-7c3d-9e4f-5a6b7c8d9e0f",
    }),
});

export const listWebhooksRoute = createRoute({
  method: "get",
  path: "/webhooks",
  operationId: "listWebhooks",
  summary: "List webhooks",
  description: "The account's webhook endpoints (at most 10), oldest first, without their secrets.",
  tags,
  security,
  responses: {
    200: {
      description: "The webhooks.",
      ...json(z.object({ data: z.array(Webhook).meta({ description: "The webhooks, oldest first." }) })),
    },
    ...errorResponses(...authErrors),
  },
});

export const createWebhookRoute = createRoute({
  method: "post",
  path: "/webhooks",
  operationId: "createWebhook",
  summary: "Create a webhook",
  description:
    "Registers an endpoint that receives the account's events as signed POSTs (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). The response carries the signing `secret`, shown only here. `events` defaults to all event types. The URL must be https to a public host: localhost and IP literals in loopback, private, link-local, carrier-grade NAT or unspecified ranges are 400 `validation_failed`. At most 10 per account (409 `webhook_limit_reached`). Event list, payloads and retries: docs/events.md.",
  tags,
  security,
  request: { body: { required: true, ...json(WebhookInput) } },
  responses: {
    201: {
      description: "The webhook, with its secret.",
      headers: { Location: { description: "URL of the webhook.", schema: { type: "string" } } },
      ...json(NewWebhook),
    },
    ...errorResponses("validation_failed", ...authErrors, "payload_too_large", "webhook_limit_reached"),
  },
});

export const updateWebhookRoute = createRoute({
  method: "patch",
  path: "/webhooks/{id}",
  operationId: "updateWebhook",
  summary: "Change a webhook",
  description:
    "Changes its `url`, `events`, `description` or `enabled`. `enabled: false` stops deliveries and drops those pending; `enabled: true` starts them again and clears `disabledReason`. The secret stays.",
  tags,
  security,
  request: { params: IdParam, body: { required: true, ...json(WebhookPatch) } },
  responses: {
    200: { description: "The webhook.", ...json(Webhook) },
    ...errorResponses("validation_failed", ...authErrors, "webhook_not_found", "payload_too_large"),
  },
});

export const deleteWebhookRoute = createRoute({
  method: "delete",
  path: "/webhooks/{id}",
  operationId: "deleteWebhook",
  summary: "Delete a webhook",
  description: "Deletes the webhook, its pending deliveries and its delivery log.",
  tags,
  security,
  request: { params: IdParam },
  responses: { 204: { description: "Deleted." }, ...errorResponses(...authErrors, "webhook_not_found") },
});

export const testWebhookRoute = createRoute({
  method: "post",
  path: "/webhooks/{id}/test",
  operationId: "testWebhook",
  summary: "Send a test event",
  description:
    "Queues a `webhook.test` event to this webhook (enabled or not), delivered within seconds and retried like any event. Its outcome appears in `listWebhookDeliveries`. The body is `{}`, or none at all (`curl -X POST`).",
  tags,
  security,
  request: { params: IdParam, body: { required: false, ...json(z.strictObject({})) } },
  responses: {
    202: {
      description: "Queued.",
      ...json(
        z.object({
          eventId: z
            .string()
            .openapi({ description: "The event's `webhook-id`.", example: "msg_0193c4e88a2b7c3d9e4f5a6b7c8d9e0f" }),
        }),
      ),
    },
    ...errorResponses("validation_failed", ...authErrors, "webhook_not_found", "payload_too_large"),
  },
});

export const rotateWebhookSecretRoute = createRoute({
  method: "post",
  path: "/webhooks/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate a webhook's secret",
  description:
    "Makes a new signing secret, shown only in this response. The previous secret keeps signing for 24 hours (`previousSecretExpiresAt`): meanwhile each delivery carries two signatures in `webhook-signature`, `v1,<new> v1,<previous>`, and a Standard Webhooks verifier accepts either secret. Rotating again within the 24 hours drops the older one. The body is `{}`, or none at all.",
  tags,
  security,
  request: { params: IdParam, body: { required: false, ...json(z.strictObject({})) } },
  responses: {
    200: { description: "The webhook, with its new secret.", ...json(NewWebhook) },
    ...errorResponses("validation_failed", ...authErrors, "webhook_not_found", "payload_too_large"),
  },
});

export const listWebhookDeliveriesRoute = createRoute({
  method: "get",
  path: "/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "List a webhook's deliveries",
  description:
    "The last 50 delivery attempts, newest first: event id (`webhook-id`), type, attempt number, the status answered or why there was none, and when.",
  tags,
  security,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The attempts.",
      ...json(z.object({ data: z.array(Delivery).meta({ description: "The attempts, newest first." }) })),
    },
    ...errorResponses(...authErrors, "webhook_not_found"),
  },
});

/** Each handler: validated input → one call to the key's account object (the webhook verb) → response. */
export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  const write = (c: { env: Env }) => ({ allowLoopback: allowsLoopback(c.env) });

  app.openapi(listWebhooksRoute, async (c) =>
    c.json({ data: await runFor(c, "listWebhooks", undefined as never) }, 200),
  );

  app.openapi(createWebhookRoute, async (c) => {
    const webhook = await runFor(c, "createWebhook", { input: c.req.valid("json"), ...write(c) });
    const path = `${c.req.path.replace(/\/webhooks\/?$/, "/webhooks")}/${webhook.id}`;
    c.header("Location", absoluteUrl(c.env, c.req.url, path));
    return c.json(webhook, 201);
  });

  app.openapi(updateWebhookRoute, async (c) => {
    const args = { id: c.req.valid("param").id, patch: c.req.valid("json"), ...write(c) };
    return c.json(await runFor(c, "updateWebhook", args), 200);
  });

  app.openapi(deleteWebhookRoute, async (c) => {
    await runFor(c, "deleteWebhook", c.req.valid("param"));
    return c.body(null, 204);
  });

  app.openapi(testWebhookRoute, async (c) => c.json(await runFor(c, "testWebhook", c.req.valid("param")), 202));

  app.openapi(rotateWebhookSecretRoute, async (c) =>
    c.json(await runFor(c, "rotateWebhookSecret", { id: c.req.valid("param").id }), 200),
  );

  app.openapi(listWebhookDeliveriesRoute, async (c) =>
    c.json({ data: await runFor(c, "listWebhookDeliveries", c.req.valid("param")) }, 200),
  );
}
