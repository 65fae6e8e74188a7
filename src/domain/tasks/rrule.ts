import { neverMatches, parseRule } from "./occurrences";
import { inSupportedYears, MIN_YEAR } from "./wall-clock";

/**
 * Validation of the RRULE subset we accept (RFC 5545 §3.3.10): FREQ DAILY/WEEKLY/MONTHLY/YEARLY
 * with INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT, UNTIL. Returns a reason, or null when valid.
 */
const DAY = "(?:[+-]?(?:[1-9]|[1-4]\\d|5[0-3]))?(?:MO|TU|WE|TH|FR|SA|SU)";
const PARTS: Record<string, RegExp> = {
  FREQ: /^(DAILY|WEEKLY|MONTHLY|YEARLY)$/,
  INTERVAL: /^[1-9]\d{0,3}$/,
  BYDAY: new RegExp(`^${DAY}(,${DAY})*$`),
  BYMONTHDAY: /^[+-]?([1-9]|[12]\d|3[01])(,[+-]?([1-9]|[12]\d|3[01]))*$/,
  BYMONTH: /^([1-9]|1[0-2])(,([1-9]|1[0-2]))*$/,
  COUNT: /^[1-9]\d{0,3}$/,
  UNTIL: /^\d{8}(T\d{6}Z?)?$/,
};

export function rruleProblem(value: string): string | null {
  if (value.length > 500) return "is longer than 500 characters";
  const seen = new Set<string>();
  for (const part of value.split(";")) {
    const [name, val, ...rest] = part.split("=");
    if (!name || val === undefined || rest.length) return `has a malformed part "${part}"`;
    const pattern = PARTS[name];
    if (!pattern) return `uses unsupported part ${name}; allowed: ${Object.keys(PARTS).join(", ")}`;
    if (seen.has(name)) return `repeats ${name}`;
    seen.add(name);
    if (!pattern.test(val)) return `has an invalid ${name} value "${val}"`;
    if (name === "UNTIL" && !inSupportedYears(val)) return `has an UNTIL before the year ${MIN_YEAR}`;
    if (name === "UNTIL" && !isRealUntil(val)) return `has an impossible UNTIL date "${val}"`;
  }
  if (!seen.has("FREQ")) return "needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)";
  if (seen.has("COUNT") && seen.has("UNTIL")) return "cannot have both COUNT and UNTIL";
  return impossibility(value);
}

/**
 * Rules that can never occur are refused up front, with a reason a client can act on: completing
 * one used to search until the year 9999 (seconds of CPU each time). Whether a rule occurs at all
 * is decided over one whole 400-year cycle of the calendar (occurrences.ts), so
 * `FREQ=MONTHLY;BYDAY=5MO;BYMONTHDAY=1` is refused and 29 February (every 4 to 8 years) is not.
 */
function impossibility(value: string): string | null {
  const parts = Object.fromEntries(value.split(";").map((part) => part.split("=") as [string, string]));
  const ordinal = /^[+-]?\d/;
  const days = parts.BYDAY?.split(",") ?? [];
  if (days.some((d) => ordinal.test(d))) {
    if (parts.FREQ !== "MONTHLY" && parts.FREQ !== "YEARLY")
      return "allows numbered BYDAY (e.g. 2MO) only with FREQ=MONTHLY or YEARLY";
    if (parts.FREQ === "MONTHLY" && days.some((d) => Math.abs(Number.parseInt(d, 10)) > 5))
      return "has a numbered BYDAY beyond 5 in a month";
  }
  if (neverMatches(parseRule(value))) {
    return "never occurs: no date has its BYMONTH, BYMONTHDAY and BYDAY together";
  }
  return null;
}

function isRealUntil(v: string): boolean {
  const y = +v.slice(0, 4),
    m = +v.slice(4, 6),
    d = +v.slice(6, 8);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
