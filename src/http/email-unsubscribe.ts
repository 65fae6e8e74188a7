import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { unsubscribe, unsubscribeAccount } from "../control/accounts/notifications";
import { escapeHtml } from "../domain/html";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { noStore } from "./security-headers";

/**
 * The "stop these emails" link of every reminder mail (domain/mail/unsubscribe.ts): public by declaration, its
 * signed token the only credential, judged by its MAC before any I/O. GET shows a confirmation page and changes
 * nothing (mail scanners follow links); POST turns reminder emails off: the page's button, or a mail client's
 * RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, no cookie, no Origin of ours), so no session or Origin check.
 */

const Query = z.object({
  token: z.string().max(200).openapi({ description: "The `token` parameter of the mail's link." }),
});
const html = { content: { "text/html": { schema: z.string() } } };

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

export function registerUnsubscribeRoutes(app: OpenAPIHono<AppEnv>) {
  app.use("/email/unsubscribe", noStore);
  app.openapi(
    createRoute({
      method: "get",
      path: "/email/unsubscribe",
      operationId: "confirmUnsubscribe",
      security: [],
      request: { query: Query },
      responses: {
        200: { description: "A page asking to confirm; nothing changes until it is confirmed (POST).", ...html },
        ...errorResponses("validation_failed", "invalid_token"),
      },
    }),
    async (c) => {
      const { token } = c.req.valid("query");
      await unsubscribeAccount(c.env, token);
      const form = `<p>Stop reminder emails and the daily digest for this account? Webhooks and the calendar feed stay as they are.</p><form method="post" action="/email/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop these emails</button></form><p>You can turn them on again on the account page.</p>`;
      return c.html(page("Stop these emails", form), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/email/unsubscribe",
      operationId: "unsubscribeEmail",
      security: [],
      request: { query: Query },
      responses: {
        200: {
          description:
            "Reminder emails and the digest are off (RFC 8058 one-click: a mail client POSTs `List-Unsubscribe=One-Click` here).",
          ...html,
        },
        ...errorResponses("validation_failed", "invalid_token"),
      },
    }),
    async (c) => {
      await unsubscribe(c.env, c.req.valid("query").token);
      return c.html(
        page("Done: no more reminder emails", "<p>Turn them on again any time on the account page.</p>"),
        200,
      );
    },
  );
}
