import type { parse } from "chrono-node/en";
import { floatingDate, formatInZone, fromFloating, toFloating } from "../tasks/wall-clock";

/**
 * A Todoist DATE in English ("Dec 24", "tomorrow 3pm", "every monday", "every 2 weeks") as this
 * service's due and repeat, or undefined when it cannot be read whole: a date is never guessed from
 * part of the text. A thin adapter over chrono-node and a small "every …" rule, until the tasks page's
 * quick-add parser (src/domain/tasks/quick-add.ts) can take its place.
 */
/**
 * chrono-node's English parser, handed in by the caller: it is a lazily loaded module (src/lazy/load.ts
 * `loadChrono`), which the import verb loads before its transaction, so start-up never parses it.
 */
export interface DateReader {
  parse: typeof parse;
}

export interface ReadDate {
  due: string;
  repeat?: string;
}

// biome-ignore format: a table reads better in rows
const WEEKDAYS: Record<string, string> = {
  mon: "MO", monday: "MO", tue: "TU", tues: "TU", tuesday: "TU", wed: "WE", wednesday: "WE",
  thu: "TH", thur: "TH", thurs: "TH", thursday: "TH", fri: "FR", friday: "FR",
  sat: "SA", saturday: "SA", sun: "SU", sunday: "SU",
};
const DAY_CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const UNITS: Record<string, string> = { day: "DAILY", week: "WEEKLY", month: "MONTHLY", year: "YEARLY" };
const ADVERBS: Record<string, string> = { daily: "DAILY", weekly: "WEEKLY", monthly: "MONTHLY", yearly: "YEARLY" };

/** The RRULE of an "every …" phrase without a time, or undefined. */
function everyRule(phrase: string): string | undefined {
  const words = phrase.toLowerCase().replaceAll(",", " ").split(/\s+/).filter(Boolean);
  if (words.length === 1 && ADVERBS[words[0]!]) return `FREQ=${ADVERBS[words[0]!]}`;
  if (words[0] !== "every" || words.length < 2) return undefined;
  const rest = words.slice(1).filter((w) => w !== "and");
  if (rest.length === 1 && (rest[0] === "weekday" || rest[0] === "workday")) return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
  const interval = /^\d{1,3}$/.test(rest[0]!) ? Number(rest.shift()) : 1;
  const unit = rest.length === 1 ? UNITS[rest[0]!.replace(/s$/, "")] : undefined;
  if (unit && interval >= 1) return interval === 1 ? `FREQ=${unit}` : `FREQ=${unit};INTERVAL=${interval}`;
  const days = rest.map((w) => WEEKDAYS[w.replace(/s$/, "")] ?? WEEKDAYS[w]);
  if (interval === 1 && days.length > 0 && days.every(Boolean))
    return `FREQ=WEEKLY;BYDAY=${[...new Set(days)].join(",")}`;
  return undefined;
}

/** A trailing time ("at 9am", "17:30") of an "every …" phrase: [the phrase, hours, minutes]. */
function splitTime(text: string): [string, number?, number?] {
  const match = /^(.*?)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(text);
  if (!match || (!match[3] && !match[4])) return [text];
  let hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  if (match[4]) hours = (hours % 12) + (match[4].toLowerCase() === "pm" ? 12 : 0);
  return hours < 24 && minutes < 60 ? [match[1]!, hours, minutes] : [text];
}

const DAY_MS = 86_400_000;

/** The day a rule starts: today, or for weekdays the first of them from today on. */
function firstDay(rule: string, today: number): number {
  const byDay = /BYDAY=([A-Z,]+)/.exec(rule)?.[1]?.split(",");
  if (!byDay) return today;
  let day = today;
  while (!byDay.includes(DAY_CODES[new Date(day).getUTCDay()]!)) day += DAY_MS;
  return day;
}

/** A floating day (and time) as a due value: a date, or a date-time with the zone's offset. */
function dueOf(day: number, timeZone: string, hours?: number, minutes?: number): string {
  if (hours === undefined) return floatingDate(day);
  return formatInZone(fromFloating(day + hours * 3_600_000 + (minutes ?? 0) * 60_000, timeZone), timeZone);
}

export function parseTodoistDate(
  text: string,
  { now, timeZone, chrono }: { now: Date; timeZone: string; chrono: DateReader },
): ReadDate | undefined {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (!trimmed) return undefined;
  // Chrono reads wall-clock time: give it the account's wall clock as if it were UTC.
  const floatingNow = toFloating(now.getTime(), timeZone);
  const today = floatingNow - (floatingNow % DAY_MS);
  const [phrase, hours, minutes] = splitTime(trimmed);
  const rule = everyRule(phrase);
  if (rule) return { due: dueOf(firstDay(rule, today), timeZone, hours, minutes), repeat: rule };
  const [result, ...more] = chrono.parse(
    trimmed,
    { instant: new Date(floatingNow), timezone: 0 },
    { forwardDate: true },
  );
  // Only a date that is the whole text: "every other full moon" must not become "full moon"'s date.
  if (!result || more.length > 0 || result.end || result.text.length !== trimmed.length) return undefined;
  const { start } = result;
  if (start.isCertain("timezoneOffset")) return undefined;
  const day = Date.UTC(start.get("year")!, start.get("month")! - 1, start.get("day")!);
  return start.isCertain("hour")
    ? { due: dueOf(day, timeZone, start.get("hour")!, start.get("minute") ?? 0) }
    : { due: floatingDate(day) };
}
