import type { parse } from "chrono-node/en";
import { adverbRule, firstDay, ruleOf } from "../tasks/quick-add-repeat";
import { floatingDate, formatInZone, fromFloating, toFloating } from "../tasks/wall-clock";

// A Todoist DATE in English ("Dec 24", "tomorrow 3pm", "every monday", "every 2 weeks") as this service's due and
// repeat, or undefined when it cannot be read whole: a date is never guessed from part of the text. Recurrences are
// read by the tasks page's quick-add rules (quick-add-repeat.ts), dates by chrono-node as the verb hands it in.

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

/**
 * The rule of an "every …" phrase (or "daily", "weekly", …) without a time: the tasks page's quick-add reading
 * (src/domain/tasks/quick-add-repeat.ts), so a Todoist file and a typed line mean the same rule.
 */
function everyRule(phrase: string): string | undefined {
  const words = phrase.trim().split(/\s+/);
  if (words.length === 1) return adverbRule(words[0]!);
  if (words[0]!.toLowerCase() !== "every") return undefined;
  return ruleOf(words.slice(1).join(" ")) ?? undefined;
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
  if (rule) {
    // The first day the rule allows from today on (quick-add-repeat.ts), as the page's quick add starts it.
    const first = Date.parse(`${firstDay(rule, floatingDate(today))}T00:00:00Z`);
    return { due: dueOf(first, timeZone, hours, minutes), repeat: rule };
  }
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
