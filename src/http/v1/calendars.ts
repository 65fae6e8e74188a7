import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { cors } from "hono/cors";
import * as z from "zod";
import { findPack, getManifest, getPack, listPacks, readPackBody } from "../../domain/calendars/catalogue";
import { dtstampOf, ICS_FORMAT_VERSION, renderIcs } from "../../domain/calendars/ics";
import { boundsOf, eventsBetween, SHORT_ATTRIBUTION } from "../../domain/calendars/holidays";
import { CalendarManifest, CalendarPack, HolidayDay, HolidayYear, PackFilter } from "../../domain/calendars/schemas";
import type { AppEnv } from "../../transport/env";
import { etagOf, matches } from "../conditional";
import { errorResponses } from "../../transport/problem";

/**
 * Public calendar packs: no credentials, any origin, shared caches welcome. Packs only change
 * on deploy, so clients revalidate with the strong ETag and usually get a 304.
 * Nothing here reads D1.
 */
const CACHE_CONTROL = "public, max-age=3600, s-maxage=86400, stale-while-revalidate=604800";

const ListQuery = z.object({
  country: PackFilter.shape.country.openapi({ example: "DE" }),
  q: PackFilter.shape.query.openapi({ example: "bayern" }),
});

const ICS = ".ics";
const MAX_ID = 100;

const IdParam = z.object({
  id: z
    .string()
    .max(MAX_ID)
    .openapi({
      param: { name: "id", in: "path" },
      description: "Pack id from the manifest, such as `de`, `de-by` or `us-ca`. Case-insensitive.",
      example: "de-by",
    }),
});

/**
 * The `{id}` segment as the one route serving both operations receives it (see below): a pack id, or a
 * pack id and `.ics`. The suffix does not count toward the id's documented 100 characters.
 */
const ServedIdParam = z.object({
  id: z.string().refine((id) => (id.endsWith(ICS) ? id.length - ICS.length : id.length) <= MAX_ID, {
    message: `must be at most ${MAX_ID} characters`,
  }),
});

/** The range list_holidays takes, with its rules (holidays.ts): the answer to "is it a holiday?" without a whole pack. */
const RangeQuery = z.object({
  from: HolidayDay.optional().openapi({
    description: "Only events on or after this day, `YYYY-MM-DD` (a multi-day holiday that reaches it counts).",
    example: "2026-10-03",
  }),
  to: HolidayDay.optional().openapi({
    description: "Only events on or before this day, `YYYY-MM-DD`, inclusive; not before `from`.",
    example: "2026-10-03",
  }),
  year: z.coerce
    .number()
    .int()
    .min(HolidayYear.minValue ?? 1900)
    .max(HolidayYear.maxValue ?? 2200)
    .optional()
    .openapi({ description: "A whole year (1900 to 2200), for what `from` and `to` leave open.", example: 2026 }),
});

/** What a range of a day or two costs at most (measured: test/calendars/range.test.ts), as the description says. */
export const RANGE_BYTES = 750;

const notModified = { description: "Not modified: the `If-None-Match` ETag is current." };
const cacheHeaders = {
  ETag: {
    description: "Strong validator of the body; send it back as `If-None-Match`.",
    schema: { type: "string" as const },
  },
  "Cache-Control": { description: "Shared caching allowed.", schema: { type: "string" as const } },
};

export const listCalendarPacksRoute = createRoute({
  method: "get",
  path: "/calendars",
  operationId: "listCalendarPacks",
  summary: "List calendar packs",
  description:
    "The catalogue of public holiday calendar packs: one per country, plus one per subdivision (German and Austrian states, US states, Swiss cantons, Spanish communities, Australian states, …) whose holidays differ from the country's. No credentials needed. Data from date-holidays, CC BY-SA 3.0: keep `meta.attribution` with it.",
  tags: ["Calendars"],
  security: [],
  request: { query: ListQuery },
  responses: {
    200: {
      description: "The catalogue.",
      headers: cacheHeaders,
      content: { "application/json": { schema: CalendarManifest } },
    },
    304: notModified,
    ...errorResponses("validation_failed", "unavailable"),
  },
});

export const getCalendarPackRoute = createRoute({
  method: "get",
  path: "/calendars/{id}",
  operationId: "getCalendarPack",
  summary: "Get a calendar pack",
  description:
    "One pack with its events (previous, current and next two years), sorted by date. With `from`, `to` or `year` (as MCP `list_holidays` takes them), `events` holds only the events in that range, `eventCount` counts them and `attribution` is the licence's short form (the whole pack carries the full text); the rest of the pack is unchanged. " +
    `\`?from=2026-10-03&to=2026-10-04\` answers "is it a holiday?" in under ${RANGE_BYTES} bytes. ` +
    "Each event's `dayOff` says whether most people are off. No credentials needed. Unknown ids are 404 `pack_not_found`.",
  tags: ["Calendars"],
  security: [],
  request: { params: IdParam, query: RangeQuery },
  responses: {
    200: { description: "The pack.", headers: cacheHeaders, content: { "application/json": { schema: CalendarPack } } },
    304: notModified,
    ...errorResponses("validation_failed", "pack_not_found", "unavailable"),
  },
});

// Hono cannot route `{id}.ics` as one parameter plus a suffix, so this operation is documented here
// and served by the `{id}` route, which hands ids ending in `.ics` to the feed.
export const getCalendarPackIcsRoute = createRoute({
  method: "get",
  path: "/calendars/{id}.ics",
  operationId: "getCalendarPackIcs",
  summary: "Subscribe to a calendar pack (iCalendar)",
  description:
    "The pack as an RFC 5545 iCalendar feed of all-day events with stable UIDs. Subscribe to its absolute URL (or `webcal://…`) from Google Calendar, Apple Calendar or Outlook. No credentials needed.",
  tags: ["Calendars"],
  security: [],
  request: { params: IdParam },
  responses: {
    200: {
      description: "The iCalendar feed.",
      headers: cacheHeaders,
      content: { "text/calendar": { schema: z.string().openapi({ example: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…" }) } },
    },
    304: notModified,
    ...errorResponses("validation_failed", "pack_not_found", "unavailable"),
  },
});

/**
 * 200 with the body, or 304 when the client's copy is current. With a known ETag the body is
 * produced only when it is sent, so a revalidation reads and renders nothing.
 */
async function cacheable(
  c: Context<AppEnv>,
  content: { etag: string; body: () => Promise<string | ReadableStream | Uint8Array<ArrayBuffer>> } | string,
  contentType: string,
  extra: Record<string, string> = {},
) {
  const etag = typeof content === "string" ? await etagOf(content) : content.etag;
  const headers = { ETag: etag, "Cache-Control": CACHE_CONTROL, ...extra };
  if (matches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
  const body = typeof content === "string" ? content : await content.body();
  return c.body(body, 200, { ...headers, "Content-Type": contentType });
}

const JSON_TYPE = "application/json; charset=utf-8";

export function registerCalendarRoutes(app: OpenAPIHono<AppEnv>) {
  const publicCors = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "OPTIONS"],
    allowHeaders: ["If-None-Match"],
    exposeHeaders: ["ETag"],
    maxAge: 86400,
  });
  app.use("/calendars/*", publicCors);

  app.openapi(listCalendarPacksRoute, async (c) => {
    const { country, q } = c.req.valid("query");
    const [data, { meta }] = await Promise.all([
      listPacks(c.env.ASSETS, { country, query: q }),
      getManifest(c.env.ASSETS),
    ]);
    return cacheable(c, JSON.stringify({ data, meta: { ...meta, count: data.length } }), JSON_TYPE);
  });

  app.openAPIRegistry.registerPath(getCalendarPackIcsRoute);
  const ics = async (c: Context<AppEnv>, requested: string) => {
    const [{ id, etag }, { meta }] = await Promise.all([findPack(c.env.ASSETS, requested), getManifest(c.env.ASSETS)]);
    // The feed is a pure function of the pack, the data version and the renderer's format.
    const icsEtag = `"${etag.slice(1, -1)}-ics${ICS_FORMAT_VERSION}-${meta.dataVersion.replace(/[^A-Za-z0-9]/g, "_")}"`;
    const body = async () => renderIcs(await getPack(c.env.ASSETS, id), dtstampOf(meta.dataVersion));
    return cacheable(c, { etag: icsEtag, body }, "text/calendar; charset=utf-8", {
      "Content-Disposition": `inline; filename="${id}.ics"`,
    });
  };

  // Documented as declared; served with the `{id}` segment that may end in `.ics` (ServedIdParam).
  app.openAPIRegistry.registerPath(getCalendarPackRoute);
  const servedRoute = { ...getCalendarPackRoute, hide: true, request: { params: ServedIdParam, query: RangeQuery } };
  app.openapi(servedRoute, async (c) => {
    const requested = c.req.valid("param").id;
    // `{id}.ics` shares this route: a second pattern on the same segment (`:file{…\\.ics}`) would
    // make Hono fall back from its RegExpRouter to the slower TrieRouter for every request.
    if (requested.endsWith(ICS)) return ics(c, requested.slice(0, -ICS.length));
    const { id, etag } = await findPack(c.env.ASSETS, requested);
    const range = c.req.valid("query");
    if (range.from || range.to || range.year) {
      const pack = await getPack(c.env.ASSETS, id);
      const { from, to } = boundsOf(range, pack.years, new Date().toISOString().slice(0, 10));
      // A range's body is small and rendered on each request; its ETag is the hash of those bytes. It counts
      // its own events and carries the short attribution (the whole pack has the full text).
      const events = eventsBetween(pack.events, from, to);
      const body = { ...pack, eventCount: events.length, attribution: SHORT_ATTRIBUTION, events };
      return cacheable(c, JSON.stringify(body), JSON_TYPE);
    }
    // The stored file is the response body, byte for byte, never parsed (kept in memory after the first read).
    return cacheable(c, { etag, body: () => readPackBody(c.env.ASSETS, id) }, JSON_TYPE);
  });
}
