import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { changePassword } from "../control/accounts/reauthentication";
import { endAllSessions, endSession, listSessions } from "../control/accounts/sessions";
import { listSecurityEvents } from "../control/security-events";
import { clearSessionCookie } from "../transport/session-cookie";
import type { AppEnv } from "../transport/env";
import { body, json, NewPassword, SecurityEvent, session, SessionSummary } from "./account-schemas";
import { confirmationFields, exactlyOneProof } from "./passkey-schemas";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { reauthenticate } from "../transport/sign-in";

/**
 * The account's sessions (see them, end one: a lost laptop; or all), its security events and its password.
 * Guards: SESSION (access.ts).
 */

const PasswordChange = z
  .strictObject({
    ...confirmationFields("currentPassword", "The password now (or send `passkey`)."),
    newPassword: NewPassword,
  })
  .superRefine(exactlyOneProof("currentPassword"));

export function registerSecurityRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/sessions",
      operationId: "listSessions",
      security: session,
      responses: {
        200: {
          description: "The account's live sessions, newest first.",
          ...json(z.object({ data: z.array(SessionSummary) })),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await listSessions(c.var.db, c.var.caller.accountId, c.var.sessionId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/sessions/{id}",
      operationId: "endSession",
      security: session,
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: {
        204: { description: "Ended; its token fails from the next request on, and its live-stream sockets close." },
        ...errorResponses("unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => {
      await endSession(c.var.db, c.env, c.var.caller.accountId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/sessions",
      operationId: "endAllSessions",
      security: session,
      responses: {
        204: {
          description:
            "Signed out everywhere: every session, this one too, fails from the next request on, and their live-stream sockets close. API keys and OAuth connections stay.",
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => {
      await endAllSessions(c.var.db, c.env, c.var.caller.accountId, { userAgent: c.req.header("user-agent") });
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/account/security-events",
      operationId: "listSecurityEvents",
      security: session,
      responses: {
        200: {
          description: "The account's security events of the last 90 days, newest first.",
          ...json(z.object({ data: z.array(SecurityEvent) })),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await listSecurityEvents(c.var.db, c.var.caller.accountId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/password",
      operationId: "changePassword",
      security: session,
      request: body(PasswordChange),
      responses: {
        204: {
          description:
            "Changed. Every other session and every OAuth connection has ended; this session and the API keys keep working.",
        },
        // invalid_credentials: the current password is wrong (counted like a sign-in attempt).
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "invalid_credentials",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const { currentPassword, passkey, newPassword } = c.req.valid("json");
      const account = await reauthenticate(c, { password: currentPassword, passkey }, "currentPassword");
      const { grantIds } = await changePassword(c.var.db, c.env, account, c.var.sessionId, newPassword);
      // D1 has ended the connections; their grants leave KV after the answer (clean-up, as on revocation).
      if (grantIds.length) {
        const origin = publicOrigin(c.env, c.req.url);
        c.executionCtx.waitUntil(
          import("../oauth/provider").then(({ revokeGrants }) => revokeGrants(c.env, origin, account.id, grantIds)),
        );
      }
      return c.body(null, 204);
    },
  );
}
