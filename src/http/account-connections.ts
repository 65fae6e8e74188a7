import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { listConnections, revokeConnection } from "../control/connections/service";
import type { AppEnv } from "../transport/env";
import { json, session } from "./account-schemas";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";

/**
 * The apps a person connected over OAuth (hosted agents such as Claude or ChatGPT connectors): see
 * them, revoke one. Guards come from createAccountApp (session, then the account's rate limit).
 */

export const ConnectionSummary = z
  .object({
    id: z.string(),
    clientName: z.string().openapi({ description: "The app's name as it registered itself (not verified)." }),
    redirectHost: z.string().openapi({ description: "The host its sign-in was sent back to: where its tokens went." }),
    scopes: z.array(z.string()).openapi({ description: "`tasks:read`, and `tasks:write` when it may change tasks." }),
    createdAt: z.string().openapi({ description: "When the person allowed it (RFC 3339 UTC)." }),
    lastUsedAt: z
      .string()
      .nullable()
      .openapi({ description: "Its last token refresh or MCP request, refreshed at most once a minute." }),
  })
  .openapi("Connection");

export function registerConnectionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/connections",
      operationId: "listConnections",
      security: session,
      responses: {
        200: {
          description: "The account's live OAuth connections, newest first.",
          ...json(z.object({ data: z.array(ConnectionSummary) })),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await listConnections(c.var.db, c.env, c.var.caller.accountId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/connections/{id}",
      operationId: "revokeConnection",
      security: session,
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: {
        204: { description: "Revoked: its access and refresh tokens fail from the next request on, everywhere." },
        ...errorResponses("unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => {
      const { accountId } = c.var.caller;
      // The account object and D1 first: they decide every OAuth request and refresh. KV is clean-up.
      const { grantId } = await revokeConnection(c.var.db, c.env, accountId, c.req.valid("param").id);
      const origin = publicOrigin(c.env, c.req.url);
      c.executionCtx.waitUntil(
        import("../oauth/provider").then(({ revokeGrants }) => revokeGrants(c.env, origin, accountId, [grantId])),
      );
      return c.body(null, 204);
    },
  );
}
