import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import * as z from "zod";
import { reachAccount } from "../../control/account-client";
import { AppError } from "../../domain/errors";
import type { Result } from "../../object/result";
import { CREDENTIAL_HEADER, SESSION_EXPIRES_HEADER, SESSION_HEADER } from "../../object/stream";
import { authenticateCaller } from "../../transport/auth";
import type { AppEnv } from "../../transport/env";
import { errorResponses } from "../../transport/problem";

/**
 * GET /api/v1/stream (and the tasks page's /account/stream): the account's live stream, a WebSocket the
 * account's object accepts with the hibernation API (object/stream.ts; docs/events.md "The stream"). The
 * guards of its access ran first (Origin, the key's format and MAC, or the session); the object judges
 * the credential and Max like any verb, in the one call that forwards the upgrade.
 */
export const streamRoute = createRoute({
  method: "get",
  path: "/stream",
  operationId: "openStream",
  summary: "Open the live stream (WebSocket)",
  description:
    "A WebSocket upgrade (`Upgrade: websocket`). Every committed change sends its events (the webhook events: `task.created`, `task.updated`, `task.completed`, `task.deleted`, `list.*`, `label.*`, `task.reminder`) as JSON text messages `{type, data, serverTime}`. Credential: `Authorization: Bearer <key>`, or, from a browser, the subprotocol `todo.bearer.<key or session token>` offered beside `todo.v1` (the server selects `todo.v1`); never in the URL. With `since` (a previous `serverTime`), what changed since then comes first as one `sync` message; a `since` older than 90 days sends an `error` message (`sync_expired`) and closes with 4410. Send the text `ping` for a `pong` heartbeat. Close codes: 4401 credential revoked or expired, or the session ended (signed out), 4403 Max lapsed, 4409 replaced (an account holds at most 20 sockets; a 21st closes the oldest), 4410 sync expired.",
  tags: ["Stream"],
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      since: z.string().optional().meta({
        description: "A previous message's `serverTime`: what changed since then is sent first (inclusive).",
        example: "2026-11-22T10:15:30.123Z",
      }),
    }),
  },
  responses: {
    101: { description: "Switching Protocols: the socket is open (subprotocol `todo.v1`)." },
    ...errorResponses("validation_failed", "unauthorized", "max_required"),
  },
});

export function registerStreamRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(streamRoute, openStream as never);
}

async function openStream(c: Context<AppEnv>): Promise<Response> {
  const since = c.req.query("since");
  const upgrade = c.req.header("upgrade")?.toLowerCase() === "websocket";
  if (!upgrade || (since !== undefined && Number.isNaN(Date.parse(since)))) {
    // 401 and 403 before 400, as on every route that calls an account's object.
    await authenticateCaller(c);
    throw new AppError(
      "validation_failed",
      upgrade
        ? "`since` must be a previous message's `serverTime` (ISO 8601)."
        : "This route is a WebSocket: send `Upgrade: websocket` (new WebSocket(url, ['todo.v1', 'todo.bearer.<key>'])).",
    );
  }
  const { accountId, credential } = c.var.caller;
  const url = new URL("https://account.object/stream");
  if (since !== undefined) url.searchParams.set("since", new Date(since).toISOString());
  const headers = { Upgrade: "websocket", [CREDENTIAL_HEADER]: JSON.stringify(credential) };
  if (credential.kind === "session")
    Object.assign(headers, { [SESSION_HEADER]: c.var.sessionId, [SESSION_EXPIRES_HEADER]: c.var.sessionExpiresAt });
  return reachAccount(c.env, accountId, async (object): Promise<Result<Response>> => {
    const answer = await object.fetch(url, { headers });
    return answer.webSocket ? { ok: true, value: answer } : ((await answer.json()) as Result<Response>);
  });
}
