import type { CalendarEvent, CalendarPack } from "./schemas";

/**
 * A pack as an RFC 5545 iCalendar feed that Google, Apple and Outlook calendars can subscribe to:
 * all-day VEVENTs (DTSTART/DTEND as VALUE=DATE, DTEND exclusive), the pack's stable event uids
 * as UIDs, CRLF line endings and content lines folded at 75 octets.
 */
/** Bump when the rendered output changes for the same pack, so feed ETags change with it. */
export const ICS_FORMAT_VERSION = 1;

const CRLF = "\r\n";
const MAX_OCTETS = 75;

/** UTF-8 length of one code point. */
const octetsOf = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** TEXT value escaping (RFC 5545 3.3.11). */
export const escapeText = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, "\\n");

/**
 * Folds a content line into chunks of at most 75 octets (a continuation's leading space counts),
 * never splitting a UTF-8 sequence (RFC 5545 3.1).
 */
export function foldLine(line: string): string {
  // Fast path: at most 75 printable ASCII characters need no folding.
  if (line.length <= MAX_OCTETS && !/[^ -~]/.test(line)) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = octetsOf(char);
    const limit = parts.length === 0 ? MAX_OCTETS : MAX_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

const basicDate = (isoDate: string) => isoDate.replaceAll("-", "");

/** The day after an ISO date: DTEND of an all-day event is exclusive. */
function nextDay(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

const typeLabel: Record<CalendarEvent["type"], string> = {
  public: "Public holiday",
  bank: "Bank holiday",
  school: "School holiday",
  optional: "Optional holiday",
  observance: "Observance",
};

function eventLines(event: CalendarEvent, dtstamp: string): string[] {
  const description = [event.localName, typeLabel[event.type], event.substitute ? "Substitute day" : undefined]
    .filter((part) => part !== undefined)
    .join(" · ");
  return [
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `DTSTAMP:${dtstamp}`,
    `DTSTART;VALUE=DATE:${basicDate(event.date)}`,
    `DTEND;VALUE=DATE:${basicDate(nextDay(event.endDate ?? event.date))}`,
    `SUMMARY:${escapeText(event.name)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `CATEGORIES:${escapeText(typeLabel[event.type])}`,
    "CLASS:PUBLIC",
    // Holidays inform planning; they should not show the subscriber as busy.
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
  ];
}

/** The calendar around its events: the header every feed shares, folded, CRLF-terminated. */
function calendar(product: string, name: string, description: string, refresh: string, events: string[]): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//todo-calendar//${product}//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `NAME:${escapeText(name)}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `X-WR-CALDESC:${escapeText(description)}`,
    // How often subscribing clients should poll (RFC 7986 and the Outlook/Apple equivalent).
    `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
    `X-PUBLISHED-TTL:${refresh}`,
    ...events,
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/**
 * @param dtstamp the data version as an RFC 5545 UTC date-time (`20260920T000000Z`), so the feed's
 * bytes, and so its ETag, only change when the data does.
 */
export function renderIcs(pack: CalendarPack, dtstamp: string): string {
  return calendar(
    "Public holiday packs 1.0",
    `${pack.name} holidays`,
    pack.attribution,
    "P1W",
    pack.events.flatMap((event) => eventLines(event, dtstamp)),
  );
}

/** `2026-09-20` (date-holidays data version) as a DTSTAMP; anything else falls back to the epoch. */
export function dtstampOf(dataVersion: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(dataVersion) ? `${basicDate(dataVersion)}T000000Z` : "19700101T000000Z";
}

/** The fields of a task the feed shows (domain/tasks Task). */
export interface FeedTask {
  id: string;
  title: string;
  updatedAt: string;
  due?: string;
  reminder?: string;
  repeat?: string;
  notes?: string;
}

/** An instant as an RFC 5545 UTC date-time: 20261224T080000Z. */
const utcBasic = (instant: number) =>
  new Date(instant)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** A signed RFC 5545 duration (TRIGGER): -PT1H30M, PT9H, -P1DT2H. */
export function durationOf(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  let seconds = Math.round(Math.abs(ms) / 1000);
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const time = `${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s ? `${s}S` : ""}`;
  if (!days && !time) return "PT0S";
  return `${sign}P${days ? `${days}D` : ""}${time ? `T${time}` : ""}`;
}

/**
 * One task as a VEVENT: all-day for a date, timed (UTC) for a date-time; its reminder as a DISPLAY
 * alarm relative to the start, so it recurs with the RRULE. `startOf` gives the instant an all-day
 * task starts (midnight in the account's time zone), from which the alarm is measured.
 */
function taskLines(task: FeedTask & { due: string }, startOf: (date: string) => number): string[] {
  const allDay = task.due.length === 10;
  const start = allDay ? startOf(task.due) : Date.parse(task.due);
  const lines = [
    "BEGIN:VEVENT",
    `UID:${task.id}@tasks.todo-calendar`,
    `DTSTAMP:${utcBasic(Date.parse(task.updatedAt))}`,
    ...(allDay
      ? [`DTSTART;VALUE=DATE:${basicDate(task.due)}`, `DTEND;VALUE=DATE:${basicDate(nextDay(task.due))}`]
      : [`DTSTART:${utcBasic(start)}`]),
    `SUMMARY:${escapeText(task.title)}`,
    ...(task.notes ? [`DESCRIPTION:${escapeText(task.notes)}`] : []),
    ...(task.repeat ? [`RRULE:${task.repeat}`] : []),
    "CLASS:PRIVATE",
  ];
  if (task.reminder) {
    lines.push(
      "BEGIN:VALARM",
      "ACTION:DISPLAY",
      `DESCRIPTION:${escapeText(task.title)}`,
      `TRIGGER:${durationOf(Date.parse(task.reminder) - start)}`,
      "END:VALARM",
    );
  }
  lines.push("END:VEVENT");
  return lines;
}

/** An account's private feed of its open tasks that have a `due` (http/feeds.ts). */
export function renderTaskFeed(tasks: FeedTask[], startOf: (date: string) => number): string {
  const due = tasks.filter((task): task is FeedTask & { due: string } => task.due !== undefined);
  return calendar(
    "Tasks 1.0",
    "Tasks",
    "Your open tasks with a due date.",
    "PT1H",
    due.flatMap((task) => taskLines(task, startOf)),
  );
}
