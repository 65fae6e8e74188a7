import { offsetAt, toFloating } from "../tasks/wall-clock";

/**
 * An IANA time zone as an RFC 5545 VTIMEZONE, read from the runtime's tz database (Intl), so a feed
 * can write `DTSTART;TZID=Europe/Berlin:20270329T180000` and a repeating event keeps 18:00 local
 * across daylight-saving changes (a UTC DTSTART with an RRULE moves by an hour in summer).
 *
 * The offsets are sampled weekly from `fromYear` to the end of `toYear` and each change is found
 * to the minute by bisection. Changes of one kind (same offsets, month and local time) in
 * consecutive years that fall on the same weekday of the month ("last Sunday", "2nd Sunday")
 * become one component; when that run reaches `toYear` it gets an open-ended yearly RRULE, so
 * clients keep applying today's rule in later years. Any other change is listed with RDATEs.
 */

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

interface Change {
  /** Local wall-clock time (floating) just before the change, as the RFC wants DTSTART written. */
  local: number;
  from: number;
  to: number;
}

/** The instants in [start, end) at which the zone's offset changes. */
function changesBetween(timeZone: string, start: number, end: number): Change[] {
  const changes: Change[] = [];
  let before = offsetAt(start, timeZone);
  for (let t = start; t < end; t += WEEK_MS) {
    const next = Math.min(t + WEEK_MS, end);
    const after = offsetAt(next, timeZone);
    if (after === before) continue;
    // The change lies in (t, next]: bisect to the minute.
    let [lo, hi] = [t, next];
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetAt(mid, timeZone) === before) lo = mid;
      else hi = mid;
    }
    changes.push({ local: hi + before, from: before, to: after });
    before = after;
  }
  return changes;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** A floating time as a local RFC 5545 date-time: 20270328T020000. */
export const localBasic = (floating: number) =>
  new Date(floating)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "");

/** An offset as RFC 5545 UTC-OFFSET: +0100, -0930, +053328 (seconds only when present). */
function utcOffset(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  const total = Math.round(Math.abs(ms) / 1000);
  const seconds = total % 60;
  return `${sign}${pad(Math.floor(total / 3600))}${pad(Math.floor(total / 60) % 60)}${seconds ? pad(seconds) : ""}`;
}

/** The BYDAY forms a day matches within its month: `2SU` (n-th from the start), `-1SU` (the last). */
function bydaysOf(floating: number): string[] {
  const d = new Date(floating);
  const weekday = WEEKDAYS[d.getUTCDay()]!;
  const length = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  const forms = [`${Math.ceil(d.getUTCDate() / 7)}${weekday}`];
  if (d.getUTCDate() + 7 > length) forms.push(`-1${weekday}`);
  return forms;
}

/** The parts a change shares with its kind in other years: offsets, month and time of day. */
const kindOf = ({ local, from, to }: Change) => `${from}/${to}/${new Date(local).getUTCMonth()}/${local % DAY_MS}`;

function component(changes: Change[], rrule: string | undefined): string[] {
  const [first] = changes as [Change, ...Change[]];
  // Daylight time is any offset above the zone's other one in the pair.
  const name = first.to > first.from ? "DAYLIGHT" : "STANDARD";
  return [
    `BEGIN:${name}`,
    `DTSTART:${localBasic(first.local)}`,
    ...(rrule ? [rrule] : changes.slice(1).map((change) => `RDATE:${localBasic(change.local)}`)),
    `TZOFFSETFROM:${utcOffset(first.from)}`,
    `TZOFFSETTO:${utcOffset(first.to)}`,
    `END:${name}`,
  ];
}

/** The VTIMEZONE lines for `timeZone`, exact from `fromYear` and ruled ahead from `toYear`. */
export function vtimezoneLines(timeZone: string, fromYear: number, toYear: number): string[] {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1);
  const changes = changesBetween(timeZone, start, end);
  const body: string[] = [];
  if (changes.length === 0) {
    const offset = offsetAt(start, timeZone);
    body.push(...component([{ local: toFloating(start, timeZone), from: offset, to: offset }], undefined));
  }
  // Runs of one kind in consecutive years on a common weekday of the month.
  const runs: { changes: Change[]; bydays: string[] }[] = [];
  const open = new Map<string, (typeof runs)[number]>();
  for (const change of changes) {
    const kind = kindOf(change);
    const run = open.get(kind);
    const year = new Date(change.local).getUTCFullYear();
    const bydays = bydaysOf(change.local);
    const common = run?.bydays.filter((form) => bydays.includes(form)) ?? [];
    const last = run?.changes.at(-1);
    if (run && last && new Date(last.local).getUTCFullYear() === year - 1 && common.length > 0) {
      run.changes.push(change);
      run.bydays = common;
    } else {
      const fresh = { changes: [change], bydays };
      runs.push(fresh);
      open.set(kind, fresh);
    }
  }
  for (const run of runs) {
    const last = run.changes.at(-1)!;
    const ongoing = run.changes.length > 1 && new Date(last.local).getUTCFullYear() === toYear;
    const month = new Date(run.changes[0]!.local).getUTCMonth() + 1;
    // Prefer "the last Sunday" to "the 4th Sunday" when both held every year so far.
    const byday = run.bydays.find((form) => form.startsWith("-")) ?? run.bydays[0];
    body.push(...component(run.changes, ongoing ? `RRULE:FREQ=YEARLY;BYMONTH=${month};BYDAY=${byday}` : undefined));
  }
  return ["BEGIN:VTIMEZONE", `TZID:${timeZone}`, ...body, "END:VTIMEZONE"];
}
