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
    if (name === "UNTIL" && !isRealUntil(val)) return `has an impossible UNTIL date "${val}"`;
  }
  if (!seen.has("FREQ")) return "needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)";
  if (seen.has("COUNT") && seen.has("UNTIL")) return "cannot have both COUNT and UNTIL";
  return null;
}

function isRealUntil(v: string): boolean {
  const y = +v.slice(0, 4), m = +v.slice(4, 6), d = +v.slice(6, 8);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
