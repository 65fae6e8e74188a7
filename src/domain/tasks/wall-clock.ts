/**
 * Wall-clock time in an IANA time zone, via Intl (the runtime's tz database).
 *
 * A "floating" time is a local wall-clock reading stored as if it were UTC: the
 * representation rrule expects ("returned dates are to be read as local time").
 * Converting between floating and real instants is the only place offsets appear.
 */

/**
 * The earliest year a `due`, `reminder` or UNTIL may name. JavaScript's Date.UTC reads the years
 * 0–99 as 1900–1999 (a daily task due 0000-01-01 came back due 1900-01-01), and before about 1900
 * most time zones kept local mean time, with offsets in odd seconds that RFC 3339 cannot write.
 */
export const MIN_YEAR = 1900;

/** Whether an ISO 8601 date or date-time (or an RRULE UNTIL) is in MIN_YEAR or later, by the year as written. */
export const inSupportedYears = (value: string) => Number(value.slice(0, 4)) >= MIN_YEAR;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading of `instant` in `timeZone`, as a floating time. */
export function toFloating(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const ms = ((instant % 1000) + 1000) % 1000;
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!, ms);
}

/** UTC offset of `timeZone` at `instant`, in milliseconds (east positive). */
export const offsetAt = (instant: number, timeZone: string) => toFloating(instant, timeZone) - instant;

const DAY_MS = 86_400_000;

/**
 * The instant at which the wall clock in `timeZone` reads `floating`. Disambiguates like
 * Temporal's "compatible": in a repeated hour (autumn) the earlier instant; in a skipped
 * hour (spring) the reading is pushed forward by the length of the gap (02:30 → 03:30).
 */
export function fromFloating(floating: number, timeZone: string): number {
  const before = offsetAt(floating - DAY_MS, timeZone);
  const after = offsetAt(floating + DAY_MS, timeZone);
  const early = floating - before;
  if (toFloating(early, timeZone) === floating) return early;
  const late = floating - after;
  if (toFloating(late, timeZone) === floating) return late;
  return early;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** RFC 3339 with the zone's offset at that instant, e.g. 2026-03-30T09:00:00+02:00. Milliseconds only when non-zero. */
export function formatInZone(instant: number, timeZone: string): string {
  const floating = toFloating(instant, timeZone);
  const d = new Date(floating);
  const offsetMinutes = Math.round((floating - instant) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const ms = d.getUTCMilliseconds() ? `.${pad(d.getUTCMilliseconds(), 3)}` : "";
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${ms}` +
    `${sign}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`
  );
}

/** A floating time's calendar date, YYYY-MM-DD. */
export const floatingDate = (floating: number) => new Date(floating).toISOString().slice(0, 10);

/** Floating midnight of a YYYY-MM-DD date. */
export const floatingMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The calendar date (YYYY-MM-DD) at `instant` in `timeZone`: "today" for an account, from the server's clock. */
export const dateIn = (instant: number, timeZone: string) => floatingDate(toFloating(instant, timeZone));

/** Whether the runtime knows this IANA time zone (an account's setting, a Todoist row's TIMEZONE). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
