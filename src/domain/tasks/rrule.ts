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
  return impossibility(Object.fromEntries(value.split(";").map((part) => part.split("=") as [string, string])));
}

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Rules that can never occur are refused up front: rrule would search for them until the
 * year 9999 before giving up, which costs seconds of CPU on every completion.
 */
function impossibility(parts: Record<string, string>): string | null {
  const ordinal = /^[+-]?\d/;
  const days = parts.BYDAY?.split(",") ?? [];
  if (days.some((d) => ordinal.test(d))) {
    if (parts.FREQ !== "MONTHLY" && parts.FREQ !== "YEARLY") return "allows numbered BYDAY (e.g. 2MO) only with FREQ=MONTHLY or YEARLY";
    if (parts.FREQ === "MONTHLY" && days.some((d) => Math.abs(Number.parseInt(d, 10)) > 5)) return "has a numbered BYDAY beyond 5 in a month";
  }
  if (parts.BYMONTHDAY) {
    const months = parts.BYMONTH ? parts.BYMONTH.split(",").map(Number) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const monthDays = parts.BYMONTHDAY.split(",").map((d) => Math.abs(Number(d)));
    if (!months.some((m) => monthDays.some((d) => d <= MONTH_DAYS[m - 1]!))) return "names days that never occur in the months it allows";
  }
  return null;
}

function isRealUntil(v: string): boolean {
  const y = +v.slice(0, 4), m = +v.slice(4, 6), d = +v.slice(6, 8);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
