import { toFloating } from "../../src/domain/tasks/wall-clock";

/**
 * Days and times in the account's time zone: the views (Today, Overdue, …) and the due and reminder
 * fields use it, whatever zone the browser is in. A day is "YYYY-MM-DD"; a wall time "HH:MM".
 */

// The API's own wall-clock reading (the same module computes recurrences), so the page and the server agree.
const floating = toFloating;

const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");
const isoOf = (floatingMs: number) => new Date(floatingMs).toISOString();

/** The day `instant` falls on in `timeZone`. */
export const dayIn = (instant: number, timeZone: string) => isoOf(floating(instant, timeZone)).slice(0, 10);
export const todayIn = (timeZone: string) => dayIn(Date.now(), timeZone);

export const addDays = (day: string, days: number) =>
  isoOf(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).slice(0, 10);

/** The day a task is due in the account's zone: a date as written, a date-time where it falls there. */
export const dueDay = (due: string, timeZone: string) => (due.length === 10 ? due : dayIn(Date.parse(due), timeZone));

/** `date` at `time` on the wall clock of `timeZone`, as RFC 3339 with that zone's offset then. */
export function zonedDateTime(date: string, time: string, timeZone: string): string {
  const wall = Date.parse(`${date}T${time}:00Z`);
  // The offset at the guessed instant, then again at the corrected one (a guess across a DST change).
  let instant = wall - (floating(wall, timeZone) - wall);
  instant = wall - (floating(instant, timeZone) - instant);
  const offset = Math.round((floating(instant, timeZone) - instant) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  return `${isoOf(floating(instant, timeZone)).slice(0, 16)}:00${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** A date-time's day and wall time in `timeZone`, for the fields that edit it. */
export function wallClock(dateTime: string, timeZone: string): { date: string; time: string } {
  const iso = isoOf(floating(Date.parse(dateTime), timeZone));
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

const dayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
const yearFormat = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

// The browser's locale decides 12- or 24-hour, as it does for the dialog's time fields.
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });

/** A wall time "HH:MM" as this browser's locale writes it: "3:00 PM" (en-US), "15:00" (de-DE). */
export const describeTime = (time: string) => timeFormat.format(new Date(`1970-01-01T${time}:00Z`));

/** "Today", "Tomorrow", "Yesterday", "Fri, Dec 24", or with the year when it is not this year's. */
export function describeDay(day: string, today: string): string {
  if (day === today) return "Today";
  if (day === addDays(today, 1)) return "Tomorrow";
  if (day === addDays(today, -1)) return "Yesterday";
  const date = new Date(`${day}T00:00:00Z`);
  return (day.slice(0, 4) === today.slice(0, 4) ? dayFormat : yearFormat).format(date);
}

/** A due value or reminder for people, in the account's zone: "Today", "Tomorrow 9:00 AM", … */
export function describeWhen(value: string, timeZone: string, today: string): string {
  if (value.length === 10) return describeDay(value, today);
  const { date, time } = wallClock(value, timeZone);
  return `${describeDay(date, today)} ${describeTime(time)}`;
}

/** The zones this browser knows, for the time zone setting (a short list where Intl cannot say). */
export function timeZones(current: string): string[] {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  return [...new Set(["UTC", ...known, current])].sort();
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
