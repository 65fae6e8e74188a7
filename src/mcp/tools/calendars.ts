import * as z from "zod";
import { listPacks } from "../../domain/calendars/catalogue";
import { listHolidays } from "../../domain/calendars/holidays";
import { EventType, PackFilter } from "../../domain/calendars/schemas";
import { AppError } from "../../domain/errors";
import { defineTool } from "./descriptor";

/** The two public calendar tools: any valid key, no Max needed, nothing written. */

const Years = z.object({ from: z.number().int(), to: z.number().int() });

const Cursor = z.string().max(20).meta({ description: "`nextCursor` of the previous page." });
const offsetOf = (cursor: string | undefined) => {
  const offset = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new AppError("validation_failed", "Invalid arguments.", [
      { path: "cursor", message: "must be a `nextCursor` from list_calendar_packs" },
    ]);
  }
  return offset;
};

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
      z.object({
        id: z.string(),
        name: z.string(),
        country: z.string(),
        region: z.string().optional(),
        years: Years,
        url: z.string(),
        icsUrl: z.string(),
      }),
    ),
    count: z.number().int(),
    total: z.number().int(),
    nextCursor: z.string().optional(),
    hint: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, { limit, cursor, ...filter }) {
    const offset = offsetOf(cursor);
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
});

export const listHolidaysTool = defineTool({
  name: "list_holidays",
  title: "List public holidays",
  description:
    'Lists the holidays of a country or region in a date range (default: this year). Is 2026-10-03 a holiday in Bavaria? `country: "DE", region: "Bavaria"`, `from` and `to` 2026-10-03.',
  input: z.strictObject({
    pack: z.string().max(100).optional().meta({ description: "Pack id, e.g. `de-by`." }),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code such as DE" })
      .optional()
      .meta({ description: "ISO 3166-1 alpha-2 code." }),
    region: z.string().max(100).optional().meta({ description: "Region code or name, with `country`." }),
    from: z.iso.date().optional().meta({ description: "First day, inclusive." }),
    to: z.iso.date().optional().meta({ description: "Last day, inclusive." }),
    year: z.number().int().min(1900).max(2200).optional().meta({ description: "A whole year, instead of from/to." }),
    type: EventType.optional().meta({ description: "Only this type; `public`: most people are off." }),
  }),
  output: z.object({
    pack: z.object({ id: z.string(), name: z.string(), years: Years }),
    from: z.string(),
    to: z.string(),
    events: z.array(
      z.object({
        date: z.string(),
        endDate: z.string().optional(),
        name: z.string(),
        localName: z.string().optional(),
        type: z.string(),
      }),
    ),
    count: z.number().int(),
    attribution: z.string(),
    note: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return listHolidays(ctx.assets, input, new Date().toISOString().slice(0, 10));
  },
});
