import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { createApiKey, listApiKeys, revokeApiKey } from "../control/api-keys/service";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { ApiKeySummary, body, json, session } from "./account-schemas";

/** The account page's API keys: list, create (the key shown once), revoke. Guards: SESSION (access.ts). */

const NewApiKey = z.strictObject({
  // A lone surrogate becomes U+FFFD before counting, as in task text (tasks/schemas.ts).
  name: z
    .string()
    .overwrite((s) => s.toWellFormed())
    .trim()
    .min(1, { error: "must not be empty" })
    .max(100),
  expiresAt: z.iso
    .datetime({ offset: true, error: "must be an RFC 3339 date-time" })
    .refine((v) => Date.parse(v) > Date.now(), { message: "must be in the future" })
    .nullable()
    .optional(),
});

export function registerApiKeyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/api-keys",
      operationId: "listApiKeys",
      security: session,
      responses: {
        200: {
          description: "The account's keys, without their secrets.",
          ...json(z.object({ data: z.array(ApiKeySummary) })),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await listApiKeys(c.var.db, c.env, c.var.caller.accountId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/api-keys",
      operationId: "createApiKey",
      security: session,
      request: body(NewApiKey),
      responses: {
        201: {
          description: "The new key. `key` is shown only in this response.",
          ...json(ApiKeySummary.extend({ key: z.string() })),
        },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "key_limit_reached",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => c.json(await createApiKey(c.var.db, c.env, c.var.caller.accountId, c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/api-keys/{id}",
      operationId: "revokeApiKey",
      security: session,
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: {
        204: { description: "Revoked; the key fails from the next request on." },
        ...errorResponses("unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => {
      await revokeApiKey(c.var.db, c.env, c.var.caller.accountId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );
}
