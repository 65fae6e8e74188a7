/**
 * The days a repeat rule falls on: our RRULE subset (rrule.ts) evaluated on calendar days, with a
 * hard bound on the work. The rrule library searched until the year 9999 for a rule with no further
 * day, period by period: 0.2 s to 11 s of CPU per completion for rules such as
 * `FREQ=MONTHLY;BYDAY=5MO;BYMONTHDAY=1`. Here one search walks at most one Gregorian cycle of days.
 *
 * Semantics are RFC 5545's, as rrule and python-dateutil apply them to this subset:
 * - the periods are the rule's own (days, Monday-based weeks, months, years), every INTERVAL-th
 *   one counted from the period of the first occurrence (DTSTART: the task's `due`);
 * - BYMONTH, BYMONTHDAY and BYDAY all have to hold for a day; a numbered BYDAY (`2MO`, `-1FR`) counts
 *   within the month for MONTHLY and for YEARLY with BYMONTH, within the year for YEARLY without;
 *   plain and numbered weekdays in one BYDAY are alternatives (RFC 5545; rrule required both);
 * - without BYMONTHDAY and BYDAY, the first occurrence supplies the missing parts: its weekday
 *   (WEEKLY), its day of the month (MONTHLY), its day and month (YEARLY).
 * test/lifecycle/occurrences.test.ts holds it to rrule's answers on generated rules.
 */

const DAY_MS = 86_400_000;
/** The Gregorian calendar repeats after 400 years: 146,097 days, exactly 20,871 weeks. */
export const CYCLE_DAYS = 146_097;
const CYCLE_START = Date.UTC(2000, 0, 1) / DAY_MS;
const LAST_DAY = Date.UTC(9999, 11, 31) / DAY_MS;
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

export type Frequency = "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

export interface Rule {
  freq: Frequency;
  interval: number;
  months?: number[];
  /** 1…31 from the start of the month, -1…-31 from its end. */
  monthDays?: number[];
  /** Weekdays (Monday = 0) on any week. */
  weekdays?: number[];
  /** Numbered weekdays: the n-th (n < 0: from the end) in the month or the year. */
  nth?: { weekday: number; n: number }[];
}

const list = (value: string | undefined) => value?.split(",").map(Number);

/** A rule that rruleProblem accepted (FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY; COUNT and UNTIL are the caller's). */
export function parseRule(repeat: string): Rule {
  const parts = Object.fromEntries(repeat.split(";").map((part) => part.split("=") as [string, string]));
  const rule: Rule = { freq: parts.FREQ as Frequency, interval: Number(parts.INTERVAL ?? 1) };
  if (parts.BYMONTH) rule.months = list(parts.BYMONTH);
  if (parts.BYMONTHDAY) rule.monthDays = list(parts.BYMONTHDAY);
  const weekdays: number[] = [];
  const nth: { weekday: number; n: number }[] = [];
  for (const day of parts.BYDAY?.split(",") ?? []) {
    const weekday = WEEKDAYS.indexOf(day.slice(-2));
    const n = Number(day.slice(0, -2) || 0);
    // A number means nothing in a week or a day: rrule reads 2MO there as MO (validation refuses it).
    if (n === 0 || rule.freq === "DAILY" || rule.freq === "WEEKLY") weekdays.push(weekday);
    else nth.push({ weekday, n });
  }
  if (weekdays.length) rule.weekdays = weekdays;
  if (nth.length) rule.nth = nth;
  return rule;
}

/** A calendar day, walked forward one day at a time without a Date per step. */
interface Day {
  epoch: number;
  year: number;
  month: number;
  day: number;
  /** Monday = 0. */
  weekday: number;
  /** 1 for January 1st. */
  yearDay: number;
  monthLength: number;
  yearLength: number;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const monthLength = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : MONTH_LENGTHS[m - 1]!);

function dayAt(epoch: number): Day {
  const date = new Date(epoch * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  return {
    epoch,
    year,
    month,
    day: date.getUTCDate(),
    weekday: (date.getUTCDay() + 6) % 7,
    yearDay: epoch - Date.UTC(year, 0, 1) / DAY_MS + 1,
    monthLength: monthLength(year, month),
    yearLength: isLeap(year) ? 366 : 365,
  };
}

function advance(d: Day) {
  d.epoch++;
  d.weekday = (d.weekday + 1) % 7;
  d.yearDay++;
  if (++d.day <= d.monthLength) return;
  d.day = 1;
  if (++d.month > 12) {
    d.month = 1;
    d.year++;
    d.yearDay = 1;
    d.yearLength = isLeap(d.year) ? 366 : 365;
  }
  d.monthLength = monthLength(d.year, d.month);
}

/** Whether the rule's BYMONTH, BYMONTHDAY and BYDAY all hold for `d`. */
function matches(rule: Rule, d: Day): boolean {
  if (rule.months && !rule.months.includes(d.month)) return false;
  if (rule.monthDays && !rule.monthDays.some((n) => n === d.day || n === d.day - d.monthLength - 1)) return false;
  if (!rule.weekdays && !rule.nth) return true;
  if (rule.weekdays?.includes(d.weekday)) return true;
  if (!rule.nth) return false;
  const inMonth = rule.freq === "MONTHLY" || rule.months !== undefined;
  const position = inMonth ? d.day : d.yearDay;
  const length = inMonth ? d.monthLength : d.yearLength;
  const fromStart = Math.floor((position - 1) / 7) + 1;
  const fromEnd = -(Math.floor((length - position) / 7) + 1);
  return rule.nth.some(({ weekday, n }) => weekday === d.weekday && (n === fromStart || n === fromEnd));
}

/** The parts the first occurrence supplies when the rule names neither BYMONTHDAY nor BYDAY. */
function withDefaults(rule: Rule, first: Day): Rule {
  if (rule.monthDays || rule.weekdays || rule.nth) return rule;
  switch (rule.freq) {
    case "WEEKLY":
      return { ...rule, weekdays: [first.weekday] };
    case "MONTHLY":
      return { ...rule, monthDays: [first.day] };
    case "YEARLY":
      return { ...rule, months: rule.months ?? [first.month], monthDays: [first.day] };
    default:
      return rule;
  }
}

/** Whether `d` lies in one of the rule's periods: every INTERVAL-th, counted from the first occurrence's. */
function onGrid(rule: Rule, first: Day, d: Day): boolean {
  if (rule.interval === 1) return true;
  switch (rule.freq) {
    case "DAILY":
      return (d.epoch - first.epoch) % rule.interval === 0;
    case "WEEKLY":
      return Math.floor((d.epoch - (first.epoch - first.weekday)) / 7) % rule.interval === 0;
    case "MONTHLY":
      return ((d.year - first.year) * 12 + d.month - first.month) % rule.interval === 0;
    case "YEARLY":
      return (d.year - first.year) % rule.interval === 0;
  }
}

/**
 * The first day after `firstEpoch` (days since 1970-01-01, the day of the first occurrence) that the
 * rule falls on, looking at most one 400-year cycle ahead and never past 9999-12-31; null when none.
 * At most CYCLE_DAYS steps of a few comparisons each, whatever the rule.
 */
export const nextDay = (rule: Rule, firstEpoch: number): number | null => searchNextDay(rule, firstEpoch).day;

/** nextDay with the number of days it looked at: its bound is what keeps a completion's CPU small. */
export function searchNextDay(rule: Rule, firstEpoch: number): { day: number | null; steps: number } {
  const first = dayAt(firstEpoch);
  const full = withDefaults(rule, first);
  const d = dayAt(firstEpoch);
  const last = Math.min(firstEpoch + CYCLE_DAYS, LAST_DAY);
  let steps = 0;
  while (d.epoch < last) {
    advance(d);
    steps++;
    if (onGrid(full, first, d) && matches(full, d)) return { day: d.epoch, steps };
  }
  return { day: null, steps };
}

/**
 * Whether no day ever satisfies the rule's BYMONTH, BYMONTHDAY and BYDAY together, whatever its first
 * occurrence: none does in one whole cycle, and the calendar only repeats after it. A rule without
 * BYMONTHDAY and BYDAY takes them from its first occurrence, so it always has days.
 */
export function neverMatches(rule: Rule): boolean {
  if (!rule.monthDays && !rule.weekdays && !rule.nth) return false;
  const d = dayAt(CYCLE_START - 1);
  for (let i = 0; i < CYCLE_DAYS; i++) {
    advance(d);
    if (matches(rule, d)) return false;
  }
  return true;
}
