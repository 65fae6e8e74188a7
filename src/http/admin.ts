import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { grantMembership } from "../control/accounts/service";
import type { AppEnv } from "../transport/env";
import { ADMIN, routesFor } from "./access";
import { errorResponses } from "../transport/problem";

const MembershipGrant = z.strictObject({
  email: z.email({ error: "must be an email address" }),
  plan: z.enum(["free", "max"]),
  expiresAt: z.iso.datetime({ offset: true, error: "must be an RFC 3339 date-time" }).nullable().optional(),
});

/** Operator routes, behind the ADMIN_TOKEN secret. Without the secret they do not exist (404). */
export const createAdminApp = () => routesFor(ADMIN, registerAdminRoutes);

function registerAdminRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "put",
      path: "/admin/memberships",
      operationId: "setMembership",
      request: { body: { required: true, content: { "application/json": { schema: MembershipGrant } } } },
      responses: {
        200: { description: "The account with its new membership." },
        ...errorResponses("validation_failed", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await grantMembership(c.var.db, c.env, c.req.valid("json")), 200),
  );
}
