import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { TypedResponse } from "hono";
import * as z from "zod";
import { eraseAccount } from "../control/accounts/erasure";
import { exportStream } from "../control/accounts/export";
import type { AppEnv } from "../transport/env";
import { AccountExport } from "./account-export";
import { body, json, session } from "./account-schemas";
import { confirmationFields, exactlyOneProof } from "./passkey-schemas";
import { errorResponses } from "../transport/problem";
import { publicOrigin } from "../transport/public-origin";
import { clearSessionCookie } from "../transport/session-cookie";
import { reauthenticate } from "../transport/sign-in";
import { jsonBody } from "../transport/validation";

/** The account's data as a whole: take it out (GDPR art. 15, 20), erase it (art. 17). Guards: SESSION (access.ts). */

const Erasure = z
  .strictObject(confirmationFields("password", "The account's password, asked again (or send `passkey`)."))
  .superRefine(exactlyOneProof("password"));

export function registerDataRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/account/export",
      operationId: "exportAccount",
      security: session,
      description:
        "One JSON document with everything the account holds, as a download (`Content-Disposition: attachment`). It is streamed, a page of tasks at a time.",
      responses: {
        200: {
          description: "The export.",
          headers: {
            "Content-Disposition": {
              schema: { type: "string" },
              description: 'attachment; filename="todo-export-<date>.json"',
            },
          },
          ...json(AccountExport),
        },
        ...errorResponses("unauthorized", "rate_limited"),
      },
    }),
    async (c) => {
      const stream = await exportStream(c.var.db, c.env, c.var.caller.accountId, c.var.sessionId);
      const filename = `todo-export-${new Date().toISOString().slice(0, 10)}.json`;
      // A typed handler must name its 200 body; the stream is that body, written from the same shape.
      return c.body(stream, 200, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
      }) as unknown as TypedResponse<z.infer<typeof AccountExport>, 200, "json">;
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/account",
      operationId: "deleteAccount",
      security: session,
      request: body(Erasure),
      // A DELETE usually has no body; this one carries the password, checked like every JSON body.
      middleware: [jsonBody] as const,
      description:
        "Erases the account and everything it owns in one atomic batch: membership, sessions, API keys, OAuth " +
        "connections, tasks (deleted ones too) and idempotency records. Every key, session and connected app's " +
        "token fails from the next request on; " +
        "the email is free to sign up again. What remains (backups, logs): docs/security.md.",
      responses: {
        204: { description: "Erased." },
        // invalid_credentials: the password is wrong (counted like a sign-in attempt).
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
      const account = await reauthenticate(c, c.req.valid("json"), "password");
      const { grantIds } = await eraseAccount(c.var.db, c.env, account.id);
      // The connections' D1 rows are gone, which ends their tokens; their grants leave KV too.
      if (grantIds.length > 0) {
        const origin = publicOrigin(c.env, c.req.url);
        c.executionCtx.waitUntil(
          import("../oauth/provider").then(({ revokeGrants }) => revokeGrants(c.env, origin, account.id, grantIds)),
        );
      }
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  );
}
