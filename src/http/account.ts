import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { type AccountView, getAccount, logIn, logOut, signUp, updateAccount } from "../control/accounts/service";
import { sendVerification } from "../control/accounts/verification";
import { mailOn } from "../control/mail/mailer";
import { publicOrigin } from "../transport/public-origin";
import { isTimeZone } from "../domain/tasks/wall-clock";
import { registerEmailRoutes, registerMailedLinkRoutes } from "./account-email";
import { registerTotpRoutes } from "./account-totp";
import { passkeySignInRoutes, registerPasskeyRoutes } from "./account-passkeys";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { routesFor, SESSION, SESSION_TASKS, SIGN_IN, SIGN_OUT } from "./access";
import { registerImportRoutes } from "./v1/import";
import { limitLogin, rememberDevice } from "../transport/sign-in";
import { clearSessionCookie, offerSessionCookie } from "../transport/session-cookie";
import { errorResponses } from "../transport/problem";
import { body, DataLocationField, json, Membership, NewPassword, session } from "./account-schemas";
import { registerApiKeyRoutes } from "./account-keys";
import { registerDataRoutes } from "./account-data";
import { registerSecurityRoutes } from "./account-security";
import { registerConnectionRoutes } from "./account-connections";
import { registerBillingRoutes } from "./billing";
import { registerTaskRoutes } from "./v1/tasks";
import { registerListRoutes } from "./v1/lists";
import { registerLabelRoutes } from "./v1/labels";
import { registerStreamRoutes } from "./v1/stream";
import { registerEventRoutes } from "./account-events";
import { registerNotificationRoutes } from "./account-notifications";
import { registerPushSubscriptionRoutes } from "./push";

/** Routes for the account page. They take session tokens (bearer or the pages' cookie), never API keys. */

const Credentials = z.strictObject({
  email: z.email({ error: "must be an email address" }).max(254),
  password: NewPassword,
});

const SignUpBody = Credentials.extend({ dataLocation: DataLocationField.optional() });

const Account = z.object({
  id: z.string(),
  email: z.string(),
  timeZone: z.string(),
  dataLocation: DataLocationField,
  membership: Membership,
  createdAt: z.string().openapi({ description: "When the account signed up (RFC 3339 UTC)." }),
  totpEnabled: z
    .boolean()
    .openapi({ description: "Sign-in asks for a one-time code (POST /account/totp turns it on)." }),
  emailVerification: z.enum(["verified", "pending", "unavailable"]).openapi({
    description:
      "`pending` until the link mailed at sign-up is used (POST /auth/verify; send a new one with POST /auth/verify/resend); `unavailable` when this deployment sends no mail.",
  }),
});
const SessionResult = z.object({ token: z.string(), account: Account });

/** The account as the API shows it: whether its address is proven, or cannot be because mail is off. */
const present = (env: Env, { emailVerified, ...account }: AccountView): z.infer<typeof Account> => ({
  ...account,
  emailVerification: emailVerified ? "verified" : mailOn(env) ? "pending" : "unavailable",
});

const AccountPatch = z.strictObject({
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: "must be an IANA time zone, e.g. Europe/Berlin" })
    .optional(),
});

/** Each group under its access (access.ts): sign-in is public, the rest needs the session. */
export function createAccountApp() {
  const app = new OpenAPIHono<AppEnv>();
  const passkeySignIn = passkeySignInRoutes({
    schema: SessionResult,
    present: (env, { token, account }) => ({ token, account: present(env, account) }),
  });
  app.route("/", routesFor(SIGN_IN, registerSignInRoutes, registerMailedLinkRoutes, passkeySignIn));
  app.route("/", routesFor(SIGN_OUT, registerSignOutRoute));
  // The tasks page's /account/tasks, /account/lists and /account/labels (and the data section's /account/import): REST's own routes and handlers, for the session
  // (/api/v1 takes API keys only). Mounted before the routes below, whose guards cover all of /account/*:
  // Hono runs a path's handlers in the order they were added, so the page's guards judge its requests
  // (403 before 400 on a body) and its handler answers before those guards would run a second time.
  app.route(
    "/account",
    routesFor(
      SESSION_TASKS,
      registerTaskRoutes,
      registerListRoutes,
      registerLabelRoutes,
      registerImportRoutes,
      registerStreamRoutes,
      registerPushSubscriptionRoutes,
    ),
  );
  app.route(
    "/",
    routesFor(
      SESSION,
      registerAccountRoutes,
      registerApiKeyRoutes,
      registerSecurityRoutes,
      registerConnectionRoutes,
      registerDataRoutes,
      registerBillingRoutes,
      registerEventRoutes,
      registerEmailRoutes,
      registerTotpRoutes,
      registerPasskeyRoutes,
      registerNotificationRoutes,
    ),
  );
  return app;
}

function registerSignInRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/signup",
      operationId: "signUp",
      security: [],
      request: body(SignUpBody),
      responses: {
        201: { description: "Signed up and signed in (pages: also as a cookie).", ...json(SessionResult) },
        ...errorResponses("validation_failed", "email_taken", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      const { deviceToken, token, account } = await signUp(c.var.db, c.env, c.req.valid("json"), {
        userAgent: c.req.header("user-agent"),
      });
      rememberDevice(c, deviceToken);
      offerSessionCookie(c, token);
      await sendVerification(c.var.db, c.env, account, publicOrigin(c.env, c.req.url), (work) =>
        c.executionCtx.waitUntil(work),
      );
      return c.json({ token, account: present(c.env, account) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/login",
      operationId: "logIn",
      security: [],
      request: body(
        Credentials.extend({
          password: z.string().min(1).max(1024),
          code: z.string().max(32).optional().openapi({
            description:
              "For an account with one-time codes on: the 6 digits of the authenticator app, or a recovery code (each once).",
          }),
        }),
      ),
      responses: {
        200: { description: "Signed in (pages: also as a cookie).", ...json(SessionResult) },
        ...errorResponses(
          "validation_failed",
          "invalid_credentials",
          "totp_required",
          "payload_too_large",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const credentials = c.req.valid("json");
      // Backoff per email before the password is checked; unknown emails are counted the same way.
      for (const [name, value] of Object.entries(await limitLogin(c, credentials.email)))
        c.header(name, value, { append: true });
      const { deviceToken, token, account } = await logIn(c.var.db, credentials, {
        userAgent: c.req.header("user-agent"),
      });
      rememberDevice(c, deviceToken);
      offerSessionCookie(c, token);
      return c.json({ token, account: present(c.env, account) }, 200);
    },
  );
}

function registerSignOutRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/auth/logout",
      operationId: "logOut",
      security: session,
      responses: {
        204: { description: "Signed out (its cookie cleared, its live-stream sockets closed with 4401)." },
        ...errorResponses("unauthorized"),
      },
    }),
    async (c) => {
      await logOut(c.var.db, c.env, c.var.caller.accountId, c.var.sessionId);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  );
}

function registerAccountRoutes(app: OpenAPIHono<AppEnv>) {
  const accountOrThrow = async (c: { var: AppEnv["Variables"] }) => {
    const account = await getAccount(c.var.db, c.var.caller.accountId);
    if (!account) throw new AppError("unauthorized", "The account no longer exists.");
    return account;
  };

  app.openapi(
    createRoute({
      method: "get",
      path: "/account",
      operationId: "getAccount",
      security: session,
      responses: {
        200: { description: "The signed-in account.", ...json(Account) },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => c.json(present(c.env, await accountOrThrow(c)), 200),
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/account",
      operationId: "updateAccount",
      security: session,
      request: body(AccountPatch),
      responses: {
        200: { description: "The updated account.", ...json(Account) },
        ...errorResponses("validation_failed", "unauthorized", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) =>
      c.json(present(c.env, await updateAccount(c.var.db, c.env, c.var.caller.accountId, c.req.valid("json"))), 200),
  );
}
