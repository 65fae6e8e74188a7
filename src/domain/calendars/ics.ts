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

/**
 * Line breaks a TEXT value may hold, as they are written: CRLF, CR, LF, VT, FF, NEL (U+0085) and the
 * Unicode line and paragraph separators all become the `\n` escape, so a note's lines stay lines.
 */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
/**
 * What RFC 5545 (3.1 and 3.3.11: CONTROL, and the C1 controls UTF-8 carries) never allows in a value:
 * C0 controls but HTAB, DEL and C1. Removed; lone surrogates (not UTF-8 at all) become U+FFFD.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** TEXT value escaping (RFC 5545 3.3.11), for every text property the feeds write. */
export const escapeText = (text: string) =>
  text
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(LINE_BREAK, "\\n")
    .replace(FORBIDDEN, "")
    .replace(LONE_SURROGATE, "\ufffd");

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

export const basicDate = (isoDate: string) => isoDate.replaceAll("-", "");

/** The day after an ISO date: DTEND of an all-day event is exclusive. */
export function nextDay(isoDate: string): string {
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
export function calendar(
  product: string,
  name: string,
  description: string,
  refresh: string,
  events: string[],
): string {
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
