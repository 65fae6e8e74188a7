/**
 * An RRULE in words for the chips and the quick-add preview: "Every Monday", "Every 2 weeks",
 * "Every month on day 1", "Every year on Dec 24". A rule these words do not cover (COUNT, UNTIL,
 * numbered weekdays, BYMONTH with weekdays) is shown as written.
 */
const DAYS: Record<string, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};
const UNITS: Record<string, string> = { DAILY: "day", WEEKLY: "week", MONTHLY: "month", YEARLY: "year" };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const and = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : (words[0] ?? "");

export function ruleLabel(rule: string): string {
  const parts = Object.fromEntries(rule.split(";").map((p) => p.split("=")));
  const known = Object.keys(parts).every((k) => ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH"].includes(k));
  const unit = UNITS[parts.FREQ ?? ""];
  const days: string[] = parts.BYDAY?.split(",") ?? [];
  if (!known || !unit || days.some((d) => !DAYS[d])) return `Repeats: ${rule}`;
  const n = Number(parts.INTERVAL ?? 1);
  const every = n > 1 ? `Every ${n} ${unit}s` : `Every ${unit}`;
  if (days.length && !parts.BYMONTHDAY && !parts.BYMONTH) {
    if (n === 1 && days.join(",") === "MO,TU,WE,TH,FR") return "Every weekday";
    const names = days.map((d) => DAYS[d]!);
    return n === 1 && parts.FREQ === "WEEKLY" ? `Every ${and(names)}` : `${every} on ${and(names)}`;
  }
  if (days.length) return `Repeats: ${rule}`;
  const monthDays = parts.BYMONTHDAY?.split(",").map((d: string) => (d === "-1" ? "the last day" : `day ${d}`));
  const months = parts.BYMONTH?.split(",").map((m: string) => MONTHS[Number(m) - 1] ?? m);
  if (months && parts.BYMONTHDAY && months.length === 1 && !parts.BYMONTHDAY.includes(","))
    return `${every} on ${months[0]} ${parts.BYMONTHDAY}`;
  const on = [monthDays && and(monthDays), months && `in ${and(months)}`].filter(Boolean).join(" ");
  return on ? `${every} on ${on}` : every;
}
