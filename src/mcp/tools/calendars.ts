import * as z from "zod";
import { listPacks } from "../../domain/calendars/catalogue";
import { listHolidays } from "../../domain/calendars/holidays";
import {
  CalendarEvent,
  CalendarManifestEntry,
  CountryCode,
  EventType,
  HolidayDay,
  HolidayYear,
  PackFilter,
} from "../../domain/calendars/schemas";
import { renderHolidays, renderPacks } from "../render/calendars";
import { defineTool } from "./descriptor";

/** The two public calendar tools: any valid key, no Max needed, nothing written. */

/** A page's position in the search result: `nextCursor` is the offset of the next page. */
const Cursor = z
  .string()
  .regex(/^\d{1,6}$/, { message: "must be a `nextCursor` from list_calendar_packs" })
  .transform(Number)
  .meta({ description: "`nextCursor` of the previous page." });

export const listCalendarPacksTool = defineTool({
  name: "list_calendar_packs",
  title: "List public holiday calendars",
  description:
    "Finds public holiday calendars of countries and regions. `query` takes English or local names and codes (`Bavaria`, `Bayern`, `USA`). `url` is the pack as JSON, `icsUrl` a feed to subscribe to; pass `id` to list_holidays.",
  input: z.strictObject({
    country: PackFilter.shape.country.meta({ description: "ISO 3166-1 alpha-2 code." }),
    query: PackFilter.shape.query.meta({ description: "Place name or code." }),
    limit: z.number().int().min(1).max(100).default(20).meta({ description: "Page size." }),
    cursor: Cursor.optional(),
  }),
  output: z.object({
    packs: z.array(
      CalendarManifestEntry.pick({
        id: true,
        name: true,
        country: true,
        region: true,
        years: true,
        url: true,
        icsUrl: true,
      }),
    ),
    count: z.number().int(),
    total: z.number().int(),
    nextCursor: z.string().optional(),
    hint: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, { limit, cursor: offset = 0, ...filter }) {
    const found = await listPacks(ctx.assets, filter);
    const page = found.slice(offset, offset + limit);
    const rest = found.length - offset - page.length;
    const hint =
      found.length === 0
        ? "No pack matches. Try the English or local name of the country or region, its ISO code (DE, de-by), or fewer words."
        : rest > 0
          ? `${rest} more: narrow with \`country\` or \`query\`, or pass \`nextCursor\` as \`cursor\`.`
          : undefined;
    return {
      packs: page.map(({ id, name, country, region, years, url, icsUrl }) => ({
        id,
        name,
        country,
        ...(region ? { region } : {}),
        years,
        url: `${ctx.origin}${url}`,
        icsUrl: `${ctx.origin}${icsUrl}`,
      })),
      count: page.length,
      total: found.length,
      ...(rest > 0 ? { nextCursor: String(offset + page.length) } : {}),
      ...(hint ? { hint } : {}),
    };
  },
  text: renderPacks,
});

export const listHolidaysTool = defineTool({
  name: "list_holidays",
  title: "List public holidays",
  description:
    'Lists the holidays of a country or region in a date range (default: this year). Is 2026-10-03 a holiday in Bavaria? `country: "DE", region: "Bavaria"`, `from` and `to` 2026-10-03. Each event\'s `dayOff` says if most people are off: true for `public` and `bank`; `school`, `optional` and `observance` are working days.',
  input: z.strictObject({
    pack: z.string().max(100).optional().meta({ description: "Pack id, e.g. `de-by`." }),
    country: CountryCode.optional(),
    region: z.string().max(100).optional().meta({ description: "Region code or name, with `country`." }),
    from: HolidayDay.optional().meta({ description: "First day, YYYY-MM-DD." }),
    to: HolidayDay.optional().meta({ description: "Last day, YYYY-MM-DD, inclusive." }),
    year: HolidayYear.optional().meta({ description: "A whole year, instead of from/to." }),
    type: EventType.optional().meta({ description: "Only this type." }),
  }),
  output: z.object({
    pack: CalendarManifestEntry.pick({ id: true, name: true, years: true }),
    from: z.string(),
    to: z.string(),
    events: z.array(
      CalendarEvent.pick({ date: true, endDate: true, name: true, localName: true, type: true, dayOff: true }),
    ),
    count: z.number().int(),
    attribution: z.string(),
    note: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return listHolidays(ctx.assets, input, new Date().toISOString().slice(0, 10));
  },
  text: renderHolidays,
});
