import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import * as z from "zod";
import { confirmPasswordReset, requestPasswordReset } from "../control/accounts/password-reset";
import { normalizeEmail } from "../control/accounts/service";
import {
  type Defer,
  MAIL_OFF,
  requestEmailChange,
  resendVerification,
  verifyEmail,
} from "../control/accounts/verification";
import { mailOn } from "../control/mail/mailer";
import { sha256Hex } from "../domain/crypto";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { consume, RATE_POLICIES } from "../transport/rate-limit";
import { reauthenticate } from "../transport/sign-in";
import { body, GivenPassword, json, NewPassword, session } from "./account-schemas";

/**
 * Mailed links (control/accounts/verification.ts, password-reset.ts): proving an address, changing it, and
 * resetting a forgotten password. The links open the pages /verify and /reset, which call these routes.
 */

const Email = z.email({ error: "must be an email address" }).max(254);
const LinkToken = z.string().max(200).openapi({ description: "The `token` parameter of the mailed link." });
const deferOf =
  (c: Context<AppEnv>): Defer =>
  (work) =>
    c.executionCtx.waitUntil(work);
const originOf = (c: Context<AppEnv>) => publicOrigin(c.env, c.req.url);

/** Public routes (access SIGN_IN: limited per client IP): a link works without a session. */
export function registerMailedLinkRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/verify",
      operationId: "verifyEmail",
      security: [],
      request: body(z.strictObject({ token: LinkToken })),
      responses: {
        204: { description: "The address is verified (or, for an address change, now the account's, verified)." },
        ...errorResponses("validation_failed", "invalid_token", "email_taken", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      await verifyEmail(c.var.db, c.env, c.req.valid("json").token);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/password-reset",
      operationId: "requestPasswordReset",
      security: [],
      request: body(z.strictObject({ email: Email })),
      responses: {
        202: {
          description:
            "Accepted, whether or not the address has an account: if it has, a link valid 30 minutes is on its way (at most one a minute).",
        },
        ...errorResponses("validation_failed", "mail_off", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      const { email } = c.req.valid("json");
      // Per address as well as per IP: the same budget for addresses with and without an account.
      await consume(
        c.env,
        RATE_POLICIES.perEmail,
        `reset:${await sha256Hex(normalizeEmail(email))}`,
        "password-reset requests per email",
      );
      await requestPasswordReset(c.var.db, c.env, email, originOf(c), deferOf(c));
      return c.body(null, 202);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/password-reset/confirm",
      operationId: "confirmPasswordReset",
      security: [],
      request: body(z.strictObject({ token: LinkToken, newPassword: NewPassword })),
      responses: {
        204: {
          description:
            "The password is set. Every session and OAuth connection has ended; API keys keep working. Sign in with the new password.",
        },
        ...errorResponses("validation_failed", "invalid_token", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      const { token, newPassword } = c.req.valid("json");
      const { accountId, grantIds } = await confirmPasswordReset(c.var.db, c.env, token, newPassword, deferOf(c));
      if (grantIds.length) {
        const origin = originOf(c);
        c.executionCtx.waitUntil(
          import("../oauth/provider").then(({ revokeGrants }) => revokeGrants(c.env, origin, accountId, grantIds)),
        );
      }
      return c.body(null, 204);
    },
  );
}

/** Session routes (access SESSION). */
export function registerEmailRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/verify/resend",
      operationId: "resendVerification",
      security: session,
      request: { body: { required: false, ...json(z.strictObject({})) } },
      responses: {
        202: { description: "A new link is on its way (none when the address is already verified)." },
        ...errorResponses("unauthorized", "mail_off", "rate_limited"),
      },
    }),
    async (c) => {
      await resendVerification(c.var.db, c.env, c.var.caller.accountId, originOf(c), deferOf(c));
      return c.body(null, 202);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/email",
      operationId: "changeEmail",
      security: session,
      request: body(z.strictObject({ email: Email, password: GivenPassword })),
      responses: {
        202: {
          description:
            "A link is mailed to the new address and a notice to the current one. The address changes when the link is used (POST /auth/verify).",
        },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "invalid_credentials",
          "email_taken",
          "mail_off",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const { email, password } = c.req.valid("json");
      // Said before the password is asked: with mail off the change could never apply.
      if (!mailOn(c.env)) throw new AppError("mail_off", MAIL_OFF);
      const account = await reauthenticate(c, { password }, "password");
      await requestEmailChange(c.var.db, c.env, account, normalizeEmail(email), originOf(c), deferOf(c));
      return c.body(null, 202);
    },
  );
}
