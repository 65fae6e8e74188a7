import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { pushOn, vapidOf } from "../domain/push/config";
import { PushSubscriptionInput, PushSubscriptionView } from "../domain/push/subscription";
import { runFor } from "../transport/auth";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { body, json } from "./account-schemas";

/**
 * Browser notifications for reminders (Web Push; object/push/). The public key is public: a page needs it before
 * it subscribes, and it proves nothing. A device's subscription is stored in the account's object, whose alarm
 * pushes each reminder to every stored device (object/push/outbox.ts).
 */

const PublicKey = z.object({
  publicKey: z.string().nullable().openapi({
    description:
      "The VAPID public key (RFC 8292): the raw P-256 point, base64url. Pass it as `applicationServerKey` to `pushManager.subscribe`. null when this deployment sends no browser notifications (no VAPID keys): then offer none.",
    example: "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U",
  }),
});

/**
 * GET /api/v1/push/public-key: what "Notify me on this device" subscribes with. A deployment without VAPID keys
 * answers `null` rather than an error: every tasks page asks on load, and a 4xx or 5xx would be a console error
 * in every browser of a deployment that simply has push off.
 */
export function registerPushKeyRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/push/public-key",
      operationId: "getPushPublicKey",
      summary: "The VAPID public key for browser notifications",
      description:
        "The key a browser subscribes with (`applicationServerKey`) before its subscription is stored (addPushSubscription). `publicKey` is null when this deployment sends no browser notifications.",
      tags: ["Notifications"],
      security: [],
      responses: {
        200: { description: "The VAPID public key, or null.", ...json(PublicKey) },
        ...errorResponses(),
      },
    }),
    (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.json({ publicKey: vapidOf(c.env)?.publicKey ?? null }, 200);
    },
  );
}

const Id = z.object({
  id: z
    .string()
    .max(64)
    .openapi({
      param: { name: "id", in: "path" },
      description: "The device's `id`, from listPushSubscriptions or addPushSubscription.",
      example: "01938a2e-7c1f-7d3a-9b2e-4f5a6b7c8d9e",
    }),
});
const tags = ["Notifications"];
const security = [{ bearerAuth: [] }];

/**
 * A device's subscriptions, at two doors with one declaration, as the task routes: /api/v1/push-subscriptions
 * for an API key (a client of its own, such as a PWA, that shows this service's reminders) and
 * /account/push-subscriptions for the tasks page's session. Like webhooks, they need Max.
 */
export function registerPushSubscriptionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/push-subscriptions",
      operationId: "listPushSubscriptions",
      summary: "List the devices that get reminders as notifications",
      description:
        "Each device whose subscription is stored: its push endpoint (how a page finds its own), what it is, and since when.",
      tags,
      security,
      responses: {
        200: {
          description: "The devices that get reminders as browser notifications, oldest first.",
          ...json(
            z.object({
              data: z.array(PushSubscriptionView).openapi({ description: "The devices, oldest first (at most 20)." }),
            }),
          ),
        },
        ...errorResponses("unauthorized", "max_required"),
      },
    }),
    async (c) => c.json({ data: await runFor(c, "listPushSubscriptions", undefined as never) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/push-subscriptions",
      operationId: "addPushSubscription",
      summary: "Store a device's push subscription",
      description:
        "A browser's `PushSubscription.toJSON()`, made with the key of GET /push/public-key (501 `push_off` when this deployment has none). The same endpoint again renews its keys (200). An account keeps at most 20 devices: a 21st replaces the oldest. Each reminder that fires is pushed to every device, encrypted to it (RFC 8291), while Max is active.",
      tags,
      security,
      request: body(PushSubscriptionInput),
      responses: {
        200: { description: "This device was stored already: its keys are renewed.", ...json(PushSubscriptionView) },
        201: { description: "The device is stored.", ...json(PushSubscriptionView) },
        ...errorResponses("validation_failed", "unauthorized", "max_required", "payload_too_large", "push_off"),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const { subscription, created } = await runFor(c, "addPushSubscription", {
        input,
        userAgent: c.req.header("user-agent") ?? null,
        pushOn: pushOn(c.env),
      });
      return c.json(subscription, created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/push-subscriptions/{id}",
      operationId: "removePushSubscription",
      summary: "Stop notifications on a device",
      description:
        "Forgets the device and drops what waited to be pushed to it. A page also unsubscribes in the browser (`subscription.unsubscribe()`); a device the push service reports gone (404, 410) is forgotten without this.",
      tags,
      security,
      request: { params: Id },
      responses: {
        204: { description: "The device gets no more notifications; what waited to be pushed to it is dropped." },
        ...errorResponses("validation_failed", "unauthorized", "max_required", "push_subscription_not_found"),
      },
    }),
    async (c) => {
      await runFor(c, "removePushSubscription", c.req.valid("param"));
      return c.body(null, 204);
    },
  );
}
