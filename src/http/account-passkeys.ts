import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import * as z from "zod";
import { logInWithPasskey } from "../control/accounts/passkey-sign-in";
import {
  addPasskey,
  assertionOptions,
  listPasskeys,
  PASSKEY_LIMIT,
  relyingParty,
  removePasskey,
  renamePasskey,
  registrationOptions,
} from "../control/accounts/passkeys";
import { accountSecret } from "../control/accounts/reauthentication";
import type { SignedIn } from "../control/accounts/service";
import { sha256Hex } from "../domain/crypto";
import type { AppEnv } from "../transport/env";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { consume, RATE_POLICIES } from "../transport/rate-limit";
import { offerSessionCookie } from "../transport/session-cookie";
import { rememberDevice } from "../transport/sign-in";
import { body, json, session } from "./account-schemas";
import { PasskeyAssertion, PasskeyName, PasskeyRegistration, PasskeySummary } from "./passkey-schemas";

/**
 * Passkeys: register, list, rename and remove them (SESSION), sign in with one (SIGN_IN, usernameless), and the
 * options a passkey "confirm it's you" answers. The relying party is the public origin: its hostname is the RP ID,
 * and clientDataJSON must name the origin exactly.
 */
const rpOf = (c: Context<AppEnv>) => relyingParty(publicOrigin(c.env, c.req.url));

const Options = z.looseObject({ challenge: z.string() });
const Id = z.object({ id: z.string().max(1364) });
const optionsBody = { body: { required: false, ...json(z.strictObject({})) } };

export function registerPasskeyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/account/passkeys/registration-options",
      operationId: "passkeyRegistrationOptions",
      security: session,
      request: optionsBody,
      responses: {
        200: {
          description:
            "Options for `navigator.credentials.create()` (`@simplewebauthn/browser`'s startRegistration): a discoverable credential with user verification, the account's passkeys excluded. Its challenge works once, for 5 minutes.",
          ...json(Options),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) =>
      c.json(await registrationOptions(c.var.db, rpOf(c), await accountSecret(c.var.db, c.var.caller.accountId)), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/passkeys",
      operationId: "addPasskey",
      security: session,
      request: body(z.strictObject({ name: PasskeyName, response: PasskeyRegistration })),
      responses: {
        201: { description: "Added: it signs in from now on.", ...json(PasskeySummary) },
        // validation_failed also when the response does not verify: another origin or RP ID, a used challenge.
        ...errorResponses(
          "validation_failed",
          "unauthorized",
          "passkey_limit_reached",
          "payload_too_large",
          "rate_limited",
        ),
      },
      description: `Verifies the answer to POST /account/passkeys/registration-options and stores the passkey's public key. At most ${PASSKEY_LIMIT} per account.`,
    }),
    async (c) => c.json(await addPasskey(c.var.db, rpOf(c), c.var.caller.accountId, c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/account/passkeys",
      operationId: "listPasskeys",
      security: session,
      responses: {
        200: {
          description: "The account's passkeys, oldest first.",
          ...json(z.object({ data: z.array(PasskeySummary) })),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json({ data: await listPasskeys(c.var.db, c.var.caller.accountId) }, 200),
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/account/passkeys/{id}",
      operationId: "renamePasskey",
      security: session,
      request: { params: Id, ...body(z.strictObject({ name: PasskeyName })) },
      responses: {
        200: { description: "Renamed.", ...json(PasskeySummary) },
        ...errorResponses("validation_failed", "unauthorized", "not_found", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) =>
      c.json(
        await renamePasskey(c.var.db, c.var.caller.accountId, c.req.valid("param").id, c.req.valid("json").name),
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account/passkeys/{id}",
      operationId: "removePasskey",
      security: session,
      request: { params: Id },
      responses: {
        204: { description: "Removed: it signs in nowhere from the next request on. The device may still list it." },
        ...errorResponses("unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => {
      await removePasskey(c.var.db, c.var.caller.accountId, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/account/passkeys/confirmation-options",
      operationId: "passkeyConfirmationOptions",
      security: session,
      request: optionsBody,
      responses: {
        200: {
          description:
            "Options for `navigator.credentials.get()` naming the account's passkeys, to confirm it's you: send the assertion as `passkey` instead of the password to POST /account/password or DELETE /account. Its challenge works once, for 5 minutes.",
          ...json(Options),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json(await assertionOptions(c.var.db, rpOf(c), c.var.caller.accountId), 200),
  );
}

/** How account.ts answers a sign-in (its SessionResult), so a passkey's is the same JSON as POST /auth/login's. */
export interface SessionAnswer<S> {
  schema: z.ZodType<S>;
  present: (env: Env, signedIn: SignedIn) => S;
}

export const passkeySignInRoutes =
  <S>(answer: SessionAnswer<S>) =>
  (app: OpenAPIHono<AppEnv>) => {
    app.openapi(
      createRoute({
        method: "post",
        path: "/auth/passkey/options",
        operationId: "passkeySignInOptions",
        security: [],
        request: optionsBody,
        responses: {
          200: {
            description:
              "Options for `navigator.credentials.get()` naming no passkey: the browser offers this site's (usernameless sign-in, or conditional UI in the email field). Its challenge works once, for 5 minutes.",
            ...json(Options),
          },
          ...errorResponses("rate_limited"),
        },
      }),
      async (c) => c.json(await assertionOptions(c.var.db, rpOf(c), null), 200),
    );

    app.openapi(
      createRoute({
        method: "post",
        path: "/auth/passkey",
        operationId: "logInWithPasskey",
        security: [],
        request: body(z.strictObject({ response: PasskeyAssertion })),
        description:
          "Signs in with a passkey instead of the password: the answer to POST /auth/passkey/options. The same session as POST /auth/login; one-time codes are not asked, since the passkey required user verification (two factors in itself).",
        responses: {
          200: { description: "Signed in.", ...json(answer.schema) },
          ...errorResponses("validation_failed", "invalid_credentials", "payload_too_large", "rate_limited"),
        },
      }),
      async (c) => {
        const { response } = c.req.valid("json");
        // Per IP before the body (SIGN_IN), and per passkey as sign-in counts per email.
        await consume(
          c.env,
          RATE_POLICIES.perEmail,
          `passkey:${await sha256Hex(response.id)}`,
          "sign-in attempts per passkey",
        );
        const signedIn = await logInWithPasskey(c.var.db, rpOf(c), response, {
          userAgent: c.req.header("user-agent"),
          method: "passkey",
        });
        rememberDevice(c, signedIn.deviceToken);
        // The page's session, as after a password sign-in (transport/session-cookie.ts).
        offerSessionCookie(c, signedIn.token);
        return c.json(answer.present(c.env, signedIn) as never, 200);
      },
    );
  };
