import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import { accountObject } from "../control/account-client";
import { unwrap } from "../object/result";
import { renderTaskFeed } from "../domain/calendars/ics";
import { sha256Hex } from "../domain/crypto";
import { AppError } from "../domain/errors";
import { accountOfFeedToken } from "../control/feed-tokens";
import { floatingMidnight, fromFloating } from "../domain/tasks/wall-clock";
import type { AppEnv } from "../transport/env";
import { etagOf, matches } from "./conditional";
import { errorResponses } from "../transport/problem";
import { clientIp, consume, failedFeedAttempt, RATE_POLICIES } from "../transport/rate-limit";

/**
 * The account's private calendar feed, `/feeds/<token>.ics`: the secret token is the credential
 * (control/feed-tokens.ts), so the route is public by declaration. Limited per client IP, then the token is
 * judged with no I/O (its MAC) and limited per token, then one call to the account's object, which refuses a
 * token that is not the current one (404) and a lapsed Max (403). A 404 also counts against the IP.
 */

const { perFeed, perFeedIp, perIp } = RATE_POLICIES;

const gone = () =>
  new AppError("not_found", "No calendar feed at this address. Copy the current one from the account page.");

// Documented in the /api/v1 document, where the feed is served from the origin's root (`servers`).
export const getTaskFeedRoute = createRoute({
  method: "get",
  path: "/feeds/{token}.ics",
  operationId: "getTaskFeed",
  summary: "Subscribe to your tasks (iCalendar)",
  description:
    "The account's open tasks that have a `due`, as an RFC 5545 feed: an all-day event for a date, a timed event for a date-time, `SUMMARY` the title, `DESCRIPTION` the notes, a stable UID per task, a DISPLAY `VALARM` at the reminder and the task's `RRULE`. The URL (and `webcal://…`) is made, rotated and turned off on the account page; the token is its only credential. A rotated or disabled token is 404 at once; a lapsed Max membership is 403. Revalidate with `If-None-Match`. " +
    `Limits (then 429): ${perFeed.quota} requests per ${perFeed.window} s per feed, ${perFeedIp.quota} per ${perFeedIp.window} s per client IP, and ${perIp.quota} unknown feed addresses per ${perIp.window} s per client IP.`,
  tags: ["Feeds"],
  security: [],
  servers: [{ url: "/", description: "The origin's root, not /api/v1" }],
  request: {
    params: z.object({
      token: z.string().openapi({
        param: { name: "token", in: "path" },
        description: "The feed's secret token, from the account page.",
        example: "0193c4e88a2b7c3d9e4f5a6b7c8d9e0fq8ZkT3vN0pL5wR7yB2mC9xA4sD6fG1hJXw3kP9mQ2rT7vB4nL8sD1c",
      }),
    }),
  },
  responses: {
    200: {
      description: "The iCalendar feed.",
      headers: { ETag: { description: "Strong validator of the body.", schema: { type: "string" } } },
      content: { "text/calendar": { schema: z.string().openapi({ example: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…" }) } },
    },
    304: { description: "Not modified: the `If-None-Match` ETag is current." },
    ...errorResponses("max_required", "not_found", "rate_limited"),
  },
});

export function registerFeedRoutes(app: OpenAPIHono<AppEnv>) {
  // Hono cannot route `{token}.ics` as a parameter plus a suffix: the whole segment is read here.
  app.get("/feeds/:file", async (c) => {
    const token = /^(.+)\.ics$/.exec(c.req.param("file"))?.[1] ?? "";
    await consume(c.env, RATE_POLICIES.perFeedIp, `feed:${clientIp(c.req.raw)}`, "feed requests per client IP");
    const { tasks, timeZone } = await (async () => {
      const accountId = await accountOfFeedToken(c.env, token);
      if (!accountId) throw gone();
      const tokenHash = await sha256Hex(token);
      await consume(c.env, RATE_POLICIES.perFeed, tokenHash, "requests per feed");
      return unwrap(await accountObject(c.env, accountId).feed(tokenHash));
    })().catch((e) => failedFeedAttempt(c.env, c.req.raw, e));
    const body = renderTaskFeed(tasks, (date) => fromFloating(floatingMidnight(date), timeZone));
    const etag = await etagOf(body);
    // Private data: a shared cache must not keep it; the subscriber revalidates with the ETag.
    const headers = { ETag: etag, "Cache-Control": "private, no-cache", "X-Robots-Tag": "noindex" };
    if (matches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
    return c.body(body, 200, {
      ...headers,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="tasks.ics"',
    });
  });
}
