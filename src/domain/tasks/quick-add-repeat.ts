import { nextDay, parseRule } from "./occurrences";

/**
 * Recurrence phrases in English, as Todoist users type them ("every monday", "every 2 weeks",
 * "every month on the 1st", "daily"), read into the service's RRULE subset (rrule.ts). Anything else
 * is not guessed: the caller keeps the words and reports them.
 */

// biome-ignore format: a table reads better in rows
const WEEKDAYS: Record<string, string> = {
  mo: "MO", mon: "MO", monday: "MO", mondays: "MO",
  tu: "TU", tue: "TU", tues: "TU", tuesday: "TU", tuesdays: "TU",
  we: "WE", wed: "WE", wednesday: "WE", wednesdays: "WE",
  th: "TH", thu: "TH", thur: "TH", thurs: "TH", thursday: "TH", thursdays: "TH",
  fr: "FR", fri: "FR", friday: "FR", fridays: "FR",
  sa: "SA", sat: "SA", saturday: "SA", saturdays: "SA",
  su: "SU", sun: "SU", sunday: "SU", sundays: "SU",
};
const MONTH =
  /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const UNITS: Record<string, string> = { day: "DAILY", week: "WEEKLY", month: "MONTHLY", year: "YEARLY" };
const ADVERBS: Record<string, string> = {
  daily: "FREQ=DAILY",
  weekly: "FREQ=WEEKLY",
  monthly: "FREQ=MONTHLY",
  yearly: "FREQ=YEARLY",
  annually: "FREQ=YEARLY",
};
const FILLERS = new Set(["and", "on", "the", "of"]);
const ORDINAL = /^\d{1,2}(st|nd|rd|th)?$/;
const UNIT = /^(weekdays?|weekends?|days?|weeks?|months?|years?)$/;

/** The adverb's rule ("weekly"), or undefined. */
export const adverbRule = (word: string): string | undefined => ADVERBS[word.toLowerCase()];

/** Whether a word (its trailing comma aside) can be part of a phrase after "every". */
export function isRuleWord(word: string): boolean {
  const w = word.toLowerCase().replace(/,$/, "");
  return (
    w === "other" ||
    w === "last" ||
    /^\d{1,3}$/.test(w) ||
    ORDINAL.test(w) ||
    UNIT.test(w) ||
    FILLERS.has(w) ||
    !!WEEKDAYS[w] ||
    MONTH.test(w)
  );
}

/** Whether a phrase may end on this word: "every monday and" ends before "and". */
export const endsRule = (word: string) => !FILLERS.has(word.toLowerCase().replace(/,$/, "")) && !word.endsWith(",");

const ordinal = (word: string) => Number(word.replace(/(st|nd|rd|th)$/, ""));
const monthOf = (word: string) => (MONTH.test(word) ? MONTHS.indexOf(word.slice(0, 3)) + 1 : 0);
const rule = (freq: string, interval: number, extra = "") =>
  `FREQ=${freq}${interval > 1 ? `;INTERVAL=${interval}` : ""}${extra}`;

/** An RRULE for the words after "every" ("other friday", "2 weeks", "month on the 1st"), or null. */
export function ruleOf(phrase: string): string | null {
  const words = phrase
    .toLowerCase()
    .replace(/,/g, " ")
    .split(/\s+/)
    .filter((w) => w && !FILLERS.has(w));
  let interval = 1;
  if (words[0] === "other") {
    interval = 2;
    words.shift();
  } else if (/^\d{1,3}$/.test(words[0] ?? "") && UNIT.test(words[1] ?? "")) interval = Number(words.shift());
  if (interval < 1 || words.length === 0) return null;
  const head = words[0]!.replace(/s$/, "");
  const rest = words.slice(1);
  if (head === "weekday" && rest.length === 0) return rule("WEEKLY", interval, ";BYDAY=MO,TU,WE,TH,FR");
  if (head === "weekend" && rest.length === 0) return rule("WEEKLY", interval, ";BYDAY=SA,SU");
  if (UNITS[head]) {
    if (rest.length === 0) return rule(UNITS[head], interval);
    if (head === "week") return weekly(rest, interval);
    if (head === "month") return monthly(rest, interval);
    if (head === "year") return yearly(rest, interval);
    return null;
  }
  if (words.some((w) => monthOf(w) > 0)) return yearly(words, interval);
  if (words.every((w) => WEEKDAYS[w])) return weekly(words, interval);
  return monthly(words, interval);
}

function weekly(days: string[], interval: number): string | null {
  if (!days.every((d) => WEEKDAYS[d])) return null;
  return rule("WEEKLY", interval, `;BYDAY=${[...new Set(days.map((d) => WEEKDAYS[d]!))].join(",")}`);
}

/** "1st", "1st 15th", "last day". */
function monthly(words: string[], interval: number): string | null {
  if (words.join(" ") === "last day") return rule("MONTHLY", interval, ";BYMONTHDAY=-1");
  if (!words.every((w) => ORDINAL.test(w))) return null;
  const days = [...new Set(words.map(ordinal))];
  if (days.some((d) => d < 1 || d > 31)) return null;
  return rule("MONTHLY", interval, `;BYMONTHDAY=${days.join(",")}`);
}

/** "dec 24" or "24th december". */
function yearly(words: string[], interval: number): string | null {
  if (words.length !== 2) return null;
  const [a, b] = words as [string, string];
  const [month, day] = monthOf(a) > 0 ? [monthOf(a), b] : [monthOf(b), a];
  if (month < 1 || !ORDINAL.test(day) || ordinal(day) < 1 || ordinal(day) > 31) return null;
  return rule("YEARLY", interval, `;BYMONTH=${month};BYMONTHDAY=${ordinal(day)}`);
}

/**
 * The rule's first day on or after `today` (YYYY-MM-DD): the day it names (the next Monday for
 * BYDAY=MO), or today when it names none, as Todoist does for "every day".
 */
export function firstDay(repeat: string, today: string): string {
  if (!/BY(DAY|MONTHDAY|MONTH)=/.test(repeat)) return today;
  const yesterday = Date.parse(`${today}T00:00:00Z`) / 86_400_000 - 1;
  // Interval 1 for the search: a rule's periods count from its first occurrence, which this chooses.
  const day = nextDay({ ...parseRule(repeat), interval: 1 }, yesterday);
  return day === null ? today : new Date(day * 86_400_000).toISOString().slice(0, 10);
}
