import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { sha256Hex } from "../domain/crypto";
import { forgetUnsignedFeed, newFeedToken } from "../control/feed-tokens";
import { allowsLoopback } from "../domain/webhooks/address";
import { Delivery, NewWebhook, PendingDelivery, Webhook, WebhookInput } from "../domain/webhooks/schemas";
import type { AppEnv } from "../transport/env";
import { json, session } from "./account-schemas";
import { errorResponses } from "../transport/problem";
import { absoluteUrl } from "../transport/public-origin";
import { runFor } from "../transport/auth";

/**
 * The account page's calendar feed and webhooks: see, make, rotate or turn off the feed; create a
 * webhook, see each one's recent deliveries and retries, disable, enable or delete one, rotate its secret. Each is one call to the account's
 * object with the session as the credential (`runFor`: the caller `requireSession` set). Guards come from
 * createAccountApp (SESSION).
 */

const FeedStatus = z.object({
  enabled: z.boolean(),
  createdAt: z.string().optional().openapi({ description: "When the current URL was made." }),
});
const NewFeed = z.object({
  url: z.string().openapi({ description: "The feed's secret URL. Shown only in this response." }),
  webcalUrl: z.string().openapi({ description: "The same, as webcal:// for calendar apps." }),
  createdAt: z.string(),
});
const PageWebhook = Webhook.extend({
  recentFailures: z.array(Delivery).openapi({ description: "The last failed attempts, newest first." }),
  recentDeliveries: z.array(Delivery).openapi({ description: "The last attempts, newest first." }),
  pending: z.array(PendingDelivery).openapi({ description: "Deliveries still to come, the next due first." }),
});
const WebhookId = z.object({ id: z.string().max(100) });

export function registerEventRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/feed",
      operationId: "getFeed",
      security: session,
      responses: {
        200: { description: "Whether the feed is on.", ...json(FeedStatus) },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json(await runFor(c, "getFeed", undefined as never), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/feed",
      operationId: "rotateFeed",
      security: session,
      // `{}` or no body at all: there is nothing to say.
      request: { body: { required: false, ...json(z.strictObject({})) } },
      responses: {
        201: { description: "A new URL; the previous one answers 404 from now on.", ...json(NewFeed) },
        ...errorResponses("validation_failed", "unauthorized", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      // Made and hashed here (WebCrypto): the object stores only the hash, and the URL is shown once.
      const token = await newFeedToken(c.env.CREDENTIAL_SECRET, c.var.caller.accountId);
      const { createdAt } = await runFor(c, "rotateFeed", { tokenHash: await sha256Hex(token) });
      await forgetUnsignedFeed(c.var.db, c.var.caller.accountId);
      const url = absoluteUrl(c.env, c.req.url, `/feeds/${token}.ics`);
      return c.json({ url, webcalUrl: url.replace(/^https?:/, "webcal:"), createdAt }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/feed",
      operationId: "deleteFeed",
      security: session,
      responses: {
        204: { description: "Off: its URL answers 404 from now on." },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => {
      await runFor(c, "deleteFeed", undefined as never);
      await forgetUnsignedFeed(c.var.db, c.var.caller.accountId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/account/webhooks",
      operationId: "listAccountWebhooks",
      security: session,
      responses: {
        200: {
          description: "The account's webhooks, each with its last failed attempts.",
          ...json(z.object({ data: z.array(PageWebhook) })),
        },
        ...errorResponses("unauthorized", "max_required", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await runFor(c, "listAccountWebhooks", undefined as never) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/webhooks",
      operationId: "createAccountWebhook",
      security: session,
      request: { body: { required: true, ...json(WebhookInput) } },
      responses: {
        201: { description: "The webhook, with its secret (shown once).", ...json(NewWebhook) },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "max_required",
          "payload_too_large",
          "webhook_limit_reached",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const args = { input: c.req.valid("json"), allowLoopback: allowsLoopback(c.env) };
      return c.json(await runFor(c, "createWebhook", args), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/webhooks/{id}/rotate-secret",
      operationId: "rotateAccountWebhookSecret",
      security: session,
      request: { params: WebhookId, body: { required: false, ...json(z.strictObject({})) } },
      responses: {
        200: { description: "A new secret (shown once); the previous one signs too for 24 h.", ...json(NewWebhook) },
        ...errorResponses("validation_failed", "unauthorized", "max_required", "webhook_not_found", "rate_limited"),
      },
    }),
    async (c) => c.json(await runFor(c, "rotateWebhookSecret", c.req.valid("param")), 200),
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/account/webhooks/{id}",
      operationId: "updateAccountWebhook",
      security: session,
      request: {
        params: WebhookId,
        body: { required: true, ...json(z.strictObject({ enabled: z.boolean() })) },
      },
      responses: {
        200: { description: "The webhook.", ...json(Webhook) },
        ...errorResponses("validation_failed", "unauthorized", "max_required", "webhook_not_found", "rate_limited"),
      },
    }),
    async (c) => {
      const args = { id: c.req.valid("param").id, patch: c.req.valid("json"), allowLoopback: allowsLoopback(c.env) };
      return c.json(await runFor(c, "updateWebhook", args), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/webhooks/{id}",
      operationId: "deleteAccountWebhook",
      security: session,
      request: { params: WebhookId },
      responses: {
        204: { description: "Deleted, with its pending deliveries." },
        ...errorResponses("unauthorized", "max_required", "webhook_not_found", "rate_limited"),
      },
    }),
    async (c) => {
      await runFor(c, "deleteWebhook", c.req.valid("param"));
      return c.body(null, 204);
    },
  );
}
