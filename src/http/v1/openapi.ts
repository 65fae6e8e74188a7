import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../transport/env";
import { absoluteUrl } from "../../transport/public-origin";
import { API_VERSION } from "./root";

/** GET /openapi.json on `app`: the document of every route registered on `v1`, generated per request. */
export function registerOpenApiDocument(app: OpenAPIHono<AppEnv>, v1: OpenAPIHono<AppEnv>) {
  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "todo_live_…",
    description:
      "A personal API key from the account page's AI connection section (`todo_live_…`). Task operations also need an active Max membership. Session tokens are refused.",
  });
  const documentConfig = (c: Context<AppEnv>) => ({
    openapi: "3.1.0",
    info: {
      title: "Todo & Calendars API",
      version: API_VERSION,
      description:
        "Personal tasks and their lists (active Max membership required) and public holiday calendar packs. Errors are RFC 9457 problem+json with a stable `code`. The same functions are offered to agents over MCP at `/mcp`.",
      contact: { name: "Support", email: c.env.CONTACT_EMAIL },
      license: { name: "Proprietary; calendar data CC BY-SA 3.0 (date-holidays)", identifier: "CC-BY-SA-3.0" },
    },
    servers: [{ url: absoluteUrl(c.env, c.req.url, "/api/v1"), description: "This deployment" }],
    tags: [
      { name: "Meta", description: "Discovery." },
      { name: "Tasks", description: "Personal tasks. Bearer API key and active Max membership." },
      {
        name: "Lists",
        description: "Named lists of tasks, with their counts. Bearer API key and active Max membership.",
      },
      {
        name: "Labels",
        description:
          "Free-form tags that tasks carry by name, with an optional colour and their counts. Bearer API key and active Max membership.",
      },
      {
        name: "Webhooks",
        description:
          "Signed POSTs of the account's events (Standard Webhooks) to endpoints it registers; the events are this document's `webhooks`. Bearer API key and active Max membership.",
      },
      {
        name: "Notifications",
        description:
          "Reminders as browser notifications (Web Push): the VAPID public key (no credentials), and the devices that get them (bearer API key and active Max membership; the tasks page's session at /account/push-subscriptions).",
      },
      { name: "Calendars", description: "Public holiday calendar packs. No credentials." },
      {
        name: "Feeds",
        description:
          "The account's private iCalendar feed of its tasks, at the origin's root; its secret URL is its credential.",
      },
    ],
  });
  app.get("/openapi.json", (c) => c.json(v1.getOpenAPI31Document(documentConfig(c))));
}
