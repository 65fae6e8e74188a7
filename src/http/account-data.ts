import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { eraseAccount } from "../domain/accounts/erasure";
import type { AppEnv } from "../env";
import { body, GivenPassword, session } from "./account-schemas";
import { errorResponses } from "./problem";
import { reauthenticate } from "./sign-in";
import { jsonBody } from "./validation";

/** The account's data as a whole: erase it (GDPR art. 17). Guards come from createAccountApp. */

const Erasure = z.strictObject({ password: GivenPassword.openapi({ description: "The account's password, asked again." }) });

export function registerDataRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "delete", path: "/account", operationId: "deleteAccount", security: session, request: body(Erasure),
      // A DELETE usually has no body; this one carries the password, checked like every JSON body.
      middleware: [jsonBody] as const,
      description:
        "Erases the account and everything it owns in one atomic batch: membership, sessions, API keys, tasks " +
        "(deleted ones too) and idempotency records. Every key and session fails from the next request on; " +
        "the email is free to sign up again. What remains (backups, logs): docs/security.md.",
      responses: {
        204: { description: "Erased." },
        // invalid_credentials: the password is wrong (counted like a sign-in attempt).
        ...errorResponses("validation_failed", "unauthorized", "invalid_credentials", "payload_too_large", "rate_limited"),
      },
    }),
    async (c) => {
      const account = await reauthenticate(c, c.req.valid("json").password, "password");
      await eraseAccount(c.var.db, account.id);
      return c.body(null, 204);
    },
  );
}
