import type { OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { Label } from "../../domain/labels/schemas";
import { List } from "../../domain/lists/schemas";
import { Task } from "../../domain/tasks/schemas";
import type { EventData } from "../../object/webhooks/outbox";
import { type EventType, eventTypes } from "../../domain/webhooks/schemas";
import type { AppEnv } from "../../transport/env";

/**
 * The events as OpenAPI 3.1 `webhooks`: what a receiver gets, per type. Sent by the account's object
 * (src/object/delivery.ts); described here so the document shows both directions.
 */

const Deleted = z.object({ id: z.string() }).meta({ description: "The deleted task, list or label." });
const Completed = Task.extend({
  next: Task.optional().meta({ description: "The next occurrence, when a repeating task spawned one." }),
});
const TestData = z.object({ webhookId: z.string(), message: z.string() });

// Typed by the data each event carries (object/webhooks/outbox.ts): a schema that misses or mistypes one of
// its fields fails to compile.
const dataOf: { [T in EventType]: z.ZodType<EventData[T]> } = {
  "task.created": Task,
  "task.updated": Task,
  "task.completed": Completed,
  "task.deleted": Deleted,
  "task.reminder": Task,
  "list.created": List,
  "list.updated": List,
  "list.deleted": Deleted,
  "label.created": Label,
  "label.updated": Label,
  "label.deleted": Deleted,
  "webhook.test": TestData,
};

const summaries: Record<EventType, string> = {
  "task.created": "A task was created (REST, MCP or the page).",
  "task.updated": "A task changed, or was reopened.",
  "task.completed": "A task was completed; `data.next` is the next occurrence of a repeating task.",
  "task.deleted": "A task was deleted, alone or with its list.",
  "task.reminder": "A task's reminder time arrived (open tasks only; once).",
  "list.created": "A list was created, also by a task naming a new `listId`.",
  "list.updated": "A list was renamed.",
  "list.deleted": "A list was deleted (its tasks each raise task.deleted).",
  "label.created": "A label was created, also by a task naming a new label.",
  "label.updated": "A label was renamed or recoloured (a rename: each live task with it raises task.updated).",
  "label.deleted": "A label was deleted (each live task that had it raises task.updated).",
  "webhook.test": "Sent by testWebhook.",
};

/** What every delivery carries (Standard Webhooks). */
const SignatureHeaders = z.object({
  "webhook-id": z
    .string()
    .meta({ description: "The event's id: the same on every retry.", example: "msg_0193c4e88a2b7c3d9e4f5a6b7c8d9e0f" }),
  "webhook-timestamp": z
    .string()
    .meta({ description: "Seconds since the epoch, of this attempt.", example: "1795342530" }),
  "webhook-signature": z.string().meta({
    description: "`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret (Standard Webhooks).",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

export function registerEventDocuments(app: OpenAPIHono<AppEnv>) {
  for (const type of [...eventTypes, "webhook.test" as const]) {
    const body = z
      .object({
        type: z.literal(type),
        timestamp: z
          .string()
          .meta({ description: "When the event happened (RFC 3339).", example: "2026-11-22T10:15:30.123Z" }),
        data: dataOf[type],
      })
      .meta({ description: "The exact bytes signed." });
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `event_${type.replace(".", "_")}`,
      summary: summaries[type],
      tags: ["Webhooks"],
      // The receiver authenticates the request by its signature (the headers), not by a credential.
      security: [],
      request: {
        headers: SignatureHeaders,
        body: { required: true, content: { "application/json": { schema: body } } },
      },
      responses: {
        200: {
          description:
            "Any 2xx: delivered. Anything else, a redirect or no answer within 10 s: retried after about 10 s, 1 min, 10 min, 1 h and 6 h with the same `webhook-id`.",
        },
      },
    });
  }
}
