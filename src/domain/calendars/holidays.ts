import { AppError } from "../errors";
import { type Place, resolvePlace } from "./regions";
import type { CalendarEvent, CalendarManifestEntry, CalendarPack, EventType } from "./schemas";

/**
 * The holidays of one place in a date range: "is 2026-10-03 a holiday in Bavaria?" in one call.
 * The place is a pack id, or a country code with an optional region (regions.ts). The range rules
 * are shared with GET /api/v1/calendars/{id}?from&to&year (http/v1/calendars.ts).
 */
/**
 * The attribution a range answer carries (MCP list_holidays, REST `?from&to&year`), once per answer:
 * the licence's title, author, source, licence and "changed" in a line. The whole pack, the
 * manifest, the iCalendar feed and docs/calendars.md carry the full text (`attribution`, `sources`).
 */
export const SHORT_ATTRIBUTION =
  "Holiday data: date-holidays contributors (github.com/commenthol/date-holidays), CC BY-SA 3.0, adapted.";

export interface HolidayRange {
  /** Inclusive `YYYY-MM-DD` bounds; without them and without `year`, the current year. */
  from?: string;
  to?: string;
  year?: number;
}

export interface HolidayQuery extends Place, HolidayRange {
  type?: EventType;
}

export type Holiday = Pick<CalendarEvent, "date" | "endDate" | "name" | "localName" | "type" | "dayOff">;

export interface HolidayList {
  pack: Pick<CalendarManifestEntry, "id" | "name" | "years">;
  from: string;
  to: string;
  events: Holiday[];
  count: number;
  attribution: string;
  note?: string;
}

/**
 * The inclusive bounds a range asks for: `from`/`to` as given, `year` for the missing ones, the pack's
 * covered years for what neither gives, and `today`'s year when nothing is given.
 */
export function boundsOf(range: HolidayRange, years: CalendarPack["years"], today: string) {
  const year = range.year ?? (range.from || range.to ? undefined : Number(today.slice(0, 4)));
  const from = range.from ?? (year ? `${year}-01-01` : `${years.from}-01-01`);
  const to = range.to ?? (year ? `${year}-12-31` : `${years.to}-12-31`);
  if (from > to)
    throw new AppError("validation_failed", "Invalid arguments.", [
      { path: "to", message: "must not be before `from`" },
    ]);
  return { from, to };
}

/** The events that touch [from, to] (a multi-day holiday counts on each of its days). */
export const eventsBetween = <E extends CalendarEvent>(events: E[], from: string, to: string) =>
  events.filter((e) => e.date <= to && (e.endDate ?? e.date) >= from);

export async function listHolidays(assets: Fetcher, query: HolidayQuery, today: string): Promise<HolidayList> {
  const { pack, note } = await resolvePlace(assets, query);
  const { from, to } = boundsOf(query, pack.years, today);
  const events = eventsBetween(pack.events, from, to)
    .filter((e) => !query.type || e.type === query.type)
    .map(({ date, endDate, name, localName, type, dayOff }) => ({
      date,
      ...(endDate ? { endDate } : {}),
      name,
      ...(localName ? { localName } : {}),
      type,
      dayOff,
    }));
  const beyond = from < `${pack.years.from}-01-01` || to > `${pack.years.to}-12-31`;
  const coverage = beyond
    ? `The pack covers ${pack.years.from} to ${pack.years.to} only: no data outside those years.`
    : undefined;
  const notes = [note, coverage].filter(Boolean).join(" ");
  return {
    pack: { id: pack.id, name: pack.name, years: pack.years },
    from,
    to,
    events,
    count: events.length,
    attribution: SHORT_ATTRIBUTION,
    ...(notes ? { note: notes } : {}),
  };
}
