import * as z from "zod";

/** The events a webhook can receive (`webhook.test` is sent on request only, to the webhook tested). */
export const eventTypes = [
  "task.created",
  "task.updated",
  "task.completed",
  "task.deleted",
  "task.reminder",
  "list.created",
  "list.updated",
  "list.deleted",
  "label.created",
  "label.updated",
  "label.deleted",
] as const;

export type EventType = (typeof eventTypes)[number] | "webhook.test";

/** At most this many webhooks per account. */
export const WEBHOOK_LIMIT = 10;

export const EventTypeName = z.enum(eventTypes).meta({ description: "An event type.", example: "task.completed" });

const WebhookUrl = z.string().max(2000).meta({
  description:
    "Where events are POSTed: an https URL whose host is a name or a public IP address (not localhost, loopback, private, link-local, carrier-grade NAT or unspecified).",
  example: "https://example.com/hooks/todo",
});

const Events = z
  .array(EventTypeName)
  .min(1)
  .max(eventTypes.length)
  .refine((list) => new Set(list).size === list.length, { message: "must not repeat an event type" })
  .meta({ description: "The event types to receive. Default: all of them.", example: ["task.created"] });

const Description = z
  .string()
  .overwrite((s) => s.toWellFormed())
  .max(500)
  .meta({ description: "What the webhook is for, for people.", example: "Sync to my notes app" });

export const WebhookInput = z
  .strictObject({ url: WebhookUrl, events: Events.optional(), description: Description.optional() })
  .meta({ id: "WebhookInput", description: "A new webhook." });
export type WebhookInput = z.infer<typeof WebhookInput>;

export const WebhookPatch = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: Description.optional().meta({ description: 'New description, or "" to clear it.' }),
    enabled: z.boolean().optional().meta({
      description: "false stops deliveries (pending ones are dropped); true starts them again.",
      example: false,
    }),
  })
  .meta({ id: "WebhookPatch", description: "The fields to change; `{}` changes nothing." });
export type WebhookPatch = z.infer<typeof WebhookPatch>;

export const Webhook = z
  .object({
    id: z.string().meta({ description: "The webhook's id.", example: "0193c4e8-8a2b-7c3d-9e4f-5a6b7c8d9e0f" }),
    url: z.string().meta({ description: "Where events are POSTed.", example: "https://example.com/hooks/todo" }),
    events: z
      .array(EventTypeName)
      .meta({ description: "The event types it receives.", example: ["task.created", "task.completed"] }),
    description: z
      .string()
      .optional()
      .meta({ description: "What it is for, when given.", example: "Sync to my notes app" }),
    enabled: z
      .boolean()
      .meta({ description: "Whether events are sent to it. A disabled webhook gets none.", example: true }),
    disabledReason: z.string().optional().meta({
      description: "Why the service disabled it (20 events in a row failed), until it is enabled again.",
      example: "Disabled on 2026-11-22: 20 events in a row could not be delivered (last answer: HTTP 500).",
    }),
    previousSecretExpiresAt: z.string().optional().meta({
      description:
        "After a secret rotation: until when the previous secret still signs each delivery (a second `v1,` signature in `webhook-signature`).",
      example: "2026-11-23T10:15:30.123Z",
    }),
    createdAt: z.string().meta({ description: "When it was created.", example: "2026-11-22T10:15:30.123Z" }),
    updatedAt: z.string().meta({ description: "When it last changed.", example: "2026-11-22T10:15:30.123Z" }),
  })
  .meta({ id: "Webhook", description: "A webhook endpoint, without its secret." });
export type Webhook = z.infer<typeof Webhook>;

export const NewWebhook = Webhook.extend({
  secret: z.string().meta({
    description:
      "The signing secret, `whsec_` + base64 (Standard Webhooks). Shown only in this response (and after a rotation, the new one in its response): verify each request's `webhook-signature` with it.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).meta({ id: "NewWebhook", description: "The created webhook, with its secret (shown once)." });
export type NewWebhook = z.infer<typeof NewWebhook>;

export const Delivery = z
  .object({
    eventId: z
      .string()
      .meta({ description: "The event's `webhook-id`.", example: "msg_0193c4e88a2b7c3d9e4f5a6b7c8d9e0f" }),
    type: z.string().meta({ description: "The event's type.", example: "task.created" }),
    attempt: z.number().int().meta({ description: "1 for the first attempt, 2 for the first retry, …", example: 1 }),
    status: z.number().int().optional().meta({ description: "The HTTP status the endpoint answered.", example: 200 }),
    error: z.string().optional().meta({
      description: "Why there was no answer (timeout, refused address, …).",
      example: "no answer within 10 s",
    }),
    at: z.string().meta({ description: "When the attempt was made.", example: "2026-11-22T10:15:30.123Z" }),
  })
  .meta({ id: "WebhookDelivery", description: "One delivery attempt." });
export type Delivery = z.infer<typeof Delivery>;

/** What the account page shows of a delivery still to come: its next attempt (delivery.ts retries on a schedule). */
export const PendingDelivery = z
  .object({
    eventId: z.string().meta({ description: "The event's `webhook-id`." }),
    type: z.string().meta({ description: "The event's type." }),
    attempts: z.number().int().meta({ description: "Attempts made so far; 0 before the first." }),
    nextAttemptAt: z.string().meta({ description: "When the next attempt is due (RFC 3339)." }),
  })
  .meta({ id: "PendingWebhookDelivery", description: "A delivery still to be attempted." });
export type PendingDelivery = z.infer<typeof PendingDelivery>;
