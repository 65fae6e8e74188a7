import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import * as z from "zod";
import { accountSecret } from "../control/accounts/reauthentication";
import { confirmTotp, disableTotp, RECOVERY_CODE_COUNT, startTotp } from "../control/accounts/totp";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { consume, RATE_POLICIES } from "../transport/rate-limit";
import { body, json, session } from "./account-schemas";

/** One-time codes (TOTP) as a second factor: turn on (secret, then a first code), turn off (a code). SESSION access. */

const Code = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(32)
    .openapi({ description: "The 6 digits the app shows now (or, to turn off, a recovery code)." }),
});

/** Codes are guessed 6 digits at a time: the sign-in budget per account (5 a minute) bounds every route that checks one. */
async function limitCodeAttempts(c: Context<AppEnv>) {
  await consume(c.env, RATE_POLICIES.perEmail, `totp:${c.var.caller.accountId}`, "one-time code attempts per account");
  return accountSecret(c.var.db, c.var.caller.accountId);
}

export function registerTotpRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/account/totp",
      operationId: "startTotp",
      security: session,
      request: { body: { required: false, ...json(z.strictObject({})) } },
      responses: {
        200: {
          description:
            "A new secret, not yet on: show `otpauthUri` as a QR code (or the secret to type), then confirm with a first code. SHA-1, 6 digits, 30 s.",
          ...json(z.object({ secret: z.string(), otpauthUri: z.string() })),
        },
        ...errorResponses("unauthorized", "totp_enabled", "rate_limited"),
      },
    }),
    async (c) => c.json(await startTotp(c.var.db, await accountSecret(c.var.db, c.var.caller.accountId)), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/totp/confirm",
      operationId: "confirmTotp",
      security: session,
      request: body(Code),
      responses: {
        200: {
          description: `One-time codes are on from now. The ${RECOVERY_CODE_COUNT} recovery codes are shown only here: each works once instead of a code.`,
          ...json(z.object({ recoveryCodes: z.array(z.string()) })),
        },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "invalid_credentials",
          "not_found",
          "totp_enabled",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const account = await limitCodeAttempts(c);
      return c.json({ recoveryCodes: await confirmTotp(c.var.db, account, c.req.valid("json").code) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/totp",
      operationId: "disableTotp",
      security: session,
      request: body(Code),
      responses: {
        204: {
          description: "One-time codes are off; sign-in asks for the password only. The recovery codes are gone.",
        },
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "invalid_credentials",
          "not_found",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const account = await limitCodeAttempts(c);
      await disableTotp(c.var.db, account, c.req.valid("json").code);
      return c.body(null, 204);
    },
  );
}
