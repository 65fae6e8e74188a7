import { nextDay, parseRule } from "./occurrences";
import { floatingDate, floatingMidnight, formatInZone, fromFloating, toFloating } from "./wall-clock";

/**
 * The next occurrence of a repeating task, computed on floating (wall-clock) times in the account's
 * time zone, so "every day at 09:00" stays at 09:00 local across DST changes. The rule picks the
 * day (occurrences.ts, bounded work); the time of day is the base's.
 *
 * - The base is the task's `due`; without one, the completion day (in the time zone).
 * - An all-day `due` (YYYY-MM-DD) recurs by calendar date and stays all-day.
 * - A date-time `due` recurs at the same local wall-clock time and is written back as RFC 3339
 *   with the zone's offset on that date (e.g. +01:00 in winter, +02:00 in summer for Europe/Berlin).
 * - `reminder` keeps the same wall-clock distance from `due` (15 minutes before stays 15 minutes before).
 * - The completed occurrence is the first instance of the rule, as DTSTART is in RFC 5545, so
 *   COUNT=n becomes COUNT=n-1 on the next occurrence and COUNT=1 has none. UNTIL is inclusive.
 * - Returns null when the rule is exhausted, or has no day within 400 years of the base (a rule
 *   whose INTERVAL never meets its BY parts from this start, e.g. every 4 years on 29 February
 *   counted from 2025).
 */
export interface RepeatingTask {
  due?: string | null;
  reminder?: string | null;
  repeat: string;
}

export interface NextOccurrence {
  due: string;
  reminder?: string;
  repeat: string;
}

const isDateOnly = (due: string) => /^\d{4}-\d{2}-\d{2}$/.test(due);

const DAY_MS = 86_400_000;

export function nextOccurrence(task: RepeatingTask, timeZone: string, completedAt: Date): NextOccurrence | null {
  const countPart = /(?:^|;)COUNT=(\d+)/.exec(task.repeat)?.[1];
  const count = countPart === undefined ? undefined : Number(countPart);
  if (count !== undefined && count <= 1) return null;

  const allDay = !task.due || isDateOnly(task.due);
  const base = !task.due
    ? floatingMidnight(floatingDate(toFloating(completedAt.getTime(), timeZone)))
    : allDay
      ? floatingMidnight(task.due)
      : toFloating(Date.parse(task.due), timeZone);

  const baseDay = Math.floor(base / DAY_MS);
  const day = nextDay(parseRule(task.repeat), baseDay);
  if (day === null) return null;
  // Every occurrence keeps the base's time of day.
  const next = day * DAY_MS + (base - baseDay * DAY_MS);
  const until = untilFloating(task.repeat, timeZone);
  if (until !== undefined && next > until) return null;

  const result: NextOccurrence = {
    due: allDay ? floatingDate(next) : formatInZone(fromFloating(next, timeZone), timeZone),
    repeat: count === undefined ? task.repeat : task.repeat.replace(/(^|;)COUNT=\d+/, `$1COUNT=${count - 1}`),
  };
  if (task.reminder) {
    const lead = toFloating(Date.parse(task.reminder), timeZone) - base;
    result.reminder = formatInZone(fromFloating(next + lead, timeZone), timeZone);
  }
  return result;
}

/** UNTIL as a floating time: a date covers that whole local day, a `Z` time is converted, a bare time is local. */
function untilFloating(repeat: string, timeZone: string): number | undefined {
  const match = /(?:^|;)UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?/.exec(repeat);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, z] = match;
  if (h === undefined) return Date.UTC(+y!, +mo! - 1, +d!, 23, 59, 59, 999);
  const value = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!);
  return z ? toFloating(value, timeZone) : value;
}

export interface FirstOccurrence {
  due: string;
  reminder?: string;
}

/**
 * Where a weekly rule starts: the first day on or after `due` that its BYDAY allows. A Tuesday `due`
 * with `FREQ=WEEKLY;BYDAY=MO` moves to the next Monday (RFC 5545 would count the Tuesday as an extra
 * first occurrence, which no one asking for "every Monday" means), keeping its local time of day,
 * and `reminder` keeps its distance. Undefined when nothing moves: no due, no weekly BYDAY, or a
 * due on an allowed day. Other frequencies start at `due` as given.
 */
export function firstOccurrence(
  task: { due?: unknown; reminder?: unknown; repeat?: unknown },
  timeZone: string,
): FirstOccurrence | undefined {
  if (typeof task.due !== "string" || typeof task.repeat !== "string") return undefined;
  const rule = parseRule(task.repeat);
  if (rule.freq !== "WEEKLY" || !rule.weekdays) return undefined;
  const allDay = isDateOnly(task.due);
  const base = allDay ? floatingMidnight(task.due) : toFloating(Date.parse(task.due), timeZone);
  const weekday = (new Date(base).getUTCDay() + 6) % 7;
  let shift = 0;
  while (shift < 7 && !rule.weekdays.includes((weekday + shift) % 7)) shift++;
  if (shift === 0 || shift === 7) return undefined;
  const moved = base + shift * DAY_MS;
  const result: FirstOccurrence = {
    due: allDay ? floatingDate(moved) : formatInZone(fromFloating(moved, timeZone), timeZone),
  };
  if (typeof task.reminder === "string") {
    const lead = toFloating(Date.parse(task.reminder), timeZone) - base;
    result.reminder = formatInZone(fromFloating(moved + lead, timeZone), timeZone);
  }
  return result;
}
