import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { getNotifications, setNotifications } from "../control/accounts/notifications";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { body, json, session } from "./account-schemas";

/** Reminders by email (control/accounts/notifications.ts): the session's choice. The unsubscribe link: email-unsubscribe.ts. */

const Time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a local time HH:MM, e.g. 08:00" })
  .openapi({ description: "The digest's local time, in the account's time zone (24-hour HH:MM).", example: "08:00" });

const Digest = z.object({
  enabled: z.boolean(),
  time: Time.nullable().openapi({
    description: "When the digest is sent (HH:MM, account's time zone); null when off.",
  }),
});

const Notifications = z.object({
  emailReminders: z
    .boolean()
    .openapi({ description: "Each reminder that fires is mailed to the account's address, once." }),
  dailyDigest: Digest.openapi({
    description: 'A daily mail at a local time: the open tasks "due today and overdue". Off by default.',
  }),
  unavailable: z.enum(["mail_off", "email_unverified"]).nullable().openapi({
    description:
      "Why reminders by email cannot be turned on: this deployment sends no mail, or the address is not verified yet. null when they can.",
  }),
});

const NotificationsInput = z.strictObject({
  emailReminders: z.boolean(),
  dailyDigest: z.strictObject({ enabled: z.boolean(), time: Time.optional() }).optional().openapi({
    description: "Omitted: the digest is off. `time` defaults to 08:00.",
  }),
});

export function registerNotificationRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/notifications",
      operationId: "getNotifications",
      security: session,
      responses: {
        200: { description: "Reminders by email and the daily digest.", ...json(Notifications) },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json(await getNotifications(c.var.db, c.env, c.var.caller.accountId), 200),
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/account/notifications",
      operationId: "setNotifications",
      security: session,
      request: body(NotificationsInput),
      responses: {
        200: {
          description:
            "The new choice. Every mail has a one-click link that turns these emails off without signing in.",
          ...json(Notifications),
        },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "email_unverified",
          "mail_off",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const origin = publicOrigin(c.env, c.req.url);
      return c.json(await setNotifications(c.var.db, c.env, c.var.caller.accountId, origin, c.req.valid("json")), 200);
    },
  );
}
