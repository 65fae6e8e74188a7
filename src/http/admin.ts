import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { grantMembership } from "../domain/accounts/service";
import { sha256Hex, timingSafeEqual } from "../domain/crypto";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../env";
import { bearerToken } from "./auth";
import { errorResponses } from "./problem";
import { defaultHook, jsonBodies } from "./validation";

const MembershipGrant = z.strictObject({
  email: z.email({ error: "must be an email address" }),
  plan: z.enum(["free", "max"]),
  expiresAt: z.iso.datetime({ offset: true, error: "must be an RFC 3339 date-time" }).nullable().optional(),
});

/** Operator routes, guarded by the ADMIN_TOKEN secret. Without the secret they do not exist (404). */
export function createAdminApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook });

  app.use("/admin/*", async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    if (!expected) throw new AppError("not_found", "No such route.");
    const given = bearerToken(c) ?? "";
    // Compare digests so neither length nor content leaks through timing.
    const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
    if (!timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b))) {
      throw new AppError("unauthorized", "The admin token is missing or wrong.");
    }
    await next();
  });
  app.use("/admin/*", jsonBodies());

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
    async (c) => c.json(await grantMembership(c.var.db, c.req.valid("json")), 200),
  );

  return app;
}
