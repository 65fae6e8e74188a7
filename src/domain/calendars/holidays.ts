import { AppError } from "../errors";
import { getPack, listPacks } from "./catalogue";
import type { CalendarEvent, CalendarManifestEntry, CalendarPack, EventType } from "./schemas";

/**
 * The holidays of one place in a date range: "is 2026-10-03 a holiday in Bavaria?" in one call.
 * The place is a pack id, or a country code with an optional region (code or name). Regions whose
 * holidays equal their country's have no pack of their own (scripts/build-calendars.mjs), so an
 * unknown region falls back to the country's pack and says so.
 */
export interface HolidayQuery {
  pack?: string;
  country?: string;
  region?: string;
  /** Inclusive `YYYY-MM-DD` bounds; without them and without `year`, the current year. */
  from?: string;
  to?: string;
  year?: number;
  type?: EventType;
}

export type Holiday = Pick<CalendarEvent, "date" | "endDate" | "name" | "localName" | "type">;

export interface HolidayList {
  pack: Pick<CalendarManifestEntry, "id" | "name" | "years">;
  from: string;
  to: string;
  events: Holiday[];
  count: number;
  attribution: string;
  note?: string;
}

const invalid = (path: string, message: string) =>
  new AppError("validation_failed", "Invalid arguments.", [{ path, message }]);

async function resolvePack(assets: Fetcher, query: HolidayQuery): Promise<{ pack: CalendarPack; note?: string }> {
  if (query.pack) return { pack: await getPack(assets, query.pack) };
  if (!query.country) throw invalid("pack", "give `pack` (such as de-by) or `country` (such as DE)");
  const country = query.country.toLowerCase();
  const region = query.region?.trim();
  if (!region) return { pack: await getPack(assets, country) };
  const candidates = (await listPacks(assets, { country, query: region })).filter((p) => p.region);
  const exact = candidates.find((p) => p.region!.toLowerCase() === region.toLowerCase());
  if (exact || candidates.length === 1) return { pack: await getPack(assets, (exact ?? candidates[0]!).id) };
  if (candidates.length > 1) {
    throw invalid(
      "region",
      `"${region}" matches several regions: ${candidates.map((p) => `${p.region} (${p.name})`).join(", ")}`,
    );
  }
  return {
    pack: await getPack(assets, country),
    note: `No pack of its own for region "${region}": these are the country's holidays, which is what a region without its own pack observes. Check the region with list_calendar_packs.`,
  };
}

export async function listHolidays(assets: Fetcher, query: HolidayQuery, today: string): Promise<HolidayList> {
  const { pack, note } = await resolvePack(assets, query);
  const year = query.year ?? (query.from || query.to ? undefined : Number(today.slice(0, 4)));
  const from = query.from ?? (year ? `${year}-01-01` : `${pack.years.from}-01-01`);
  const to = query.to ?? (year ? `${year}-12-31` : `${pack.years.to}-12-31`);
  if (from > to) throw invalid("to", "must not be before `from`");
  const events = pack.events
    .filter((e) => e.date <= to && (e.endDate ?? e.date) >= from && (!query.type || e.type === query.type))
    .map(({ date, endDate, name, localName, type }) => ({
      date,
      ...(endDate ? { endDate } : {}),
      name,
      ...(localName ? { localName } : {}),
      type,
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
    attribution: pack.attribution,
    ...(notes ? { note: notes } : {}),
  };
}
