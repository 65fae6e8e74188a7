/**
 * The text block of the calendar tools' results: a page of packs, a range of holidays. What a model
 * passes on (a pack's id, its feed, a holiday's date and whether it is a day off) is in the text;
 * structuredContent keeps the full data (the pack's JSON `url`, `localName` apart from the name).
 */

interface PackView {
  id: string;
  name: string;
  years: { from: number; to: number };
  icsUrl: string;
}

/** list_calendar_packs: one line per pack (id, name, years, feed), then paging and the hint. */
export function renderPacks(page: {
  packs: PackView[];
  count: number;
  total: number;
  nextCursor?: string;
  hint?: string;
}): string {
  const lines = [`${page.count} of ${page.total} packs (id, name, years, feed):`];
  for (const p of page.packs) lines.push(`- ${p.id} ${p.name}, ${p.years.from}-${p.years.to}, ${p.icsUrl}`);
  if (page.nextCursor) lines.push(`More: cursor "${page.nextCursor}"`);
  if (page.hint) lines.push(`Hint: ${page.hint}`);
  return lines.join("\n");
}

interface HolidayView {
  date: string;
  endDate?: string;
  name: string;
  localName?: string;
  type: string;
  dayOff: boolean;
}

/** list_holidays: the pack and range, one line per holiday with its type and whether it is a day off. */
export function renderHolidays(result: {
  pack: { id: string; name: string };
  from: string;
  to: string;
  events: HolidayView[];
  count: number;
  attribution: string;
  note?: string;
}): string {
  const lines = [`${result.pack.name} (${result.pack.id}), ${result.from} to ${result.to}: ${result.count} holidays`];
  for (const e of result.events) {
    const days = e.endDate ? `${e.date} to ${e.endDate}` : e.date;
    const local = e.localName && e.localName !== e.name ? ` (${e.localName})` : "";
    lines.push(`- ${days} ${e.name}${local}, ${e.type}, ${e.dayOff ? "day off" : "working day"}`);
  }
  if (result.note) lines.push(`Note: ${result.note}`);
  lines.push(`Data: ${result.attribution}`);
  return lines.join("\n");
}
