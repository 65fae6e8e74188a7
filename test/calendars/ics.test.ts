import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { escapeText, foldLine } from "../../src/domain/calendars/ics";
import { CalendarPack } from "../../src/domain/calendars/schemas";
import { call } from "../helpers";

async function feed(id: string) {
  const [ics, pack] = await Promise.all([call(`/api/v1/calendars/${id}.ics`), call(`/api/v1/calendars/${id}`)]);
  expect(ics.status, id).toBe(200);
  return { text: await ics.text(), headers: ics.headers, pack: CalendarPack.parse(await pack.json()) };
}

const octets = (line: string) => new TextEncoder().encode(line).length;

describe("iCalendar feed", () => {
  // Germany and a state, the US with substitute days, multi-day holidays, and non-Latin scripts.
  for (const id of ["de", "de-by", "us-ca", "jp", "cn", "sa", "ch-ge"]) {
    it(`${id}.ics parses with ical.js into one all-day VEVENT per pack event`, async () => {
      const { text, headers, pack } = await feed(id);
      expect(headers.get("content-type")).toBe("text/calendar; charset=utf-8");

      const calendar = new ICAL.Component(ICAL.parse(text));
      expect(calendar.name).toBe("vcalendar");
      expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
      expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe(`${pack.name} holidays`);

      const vevents = calendar.getAllSubcomponents("vevent");
      expect(vevents.length).toBe(pack.events.length);
      vevents.forEach((component, i) => {
        const event = new ICAL.Event(component);
        const expected = pack.events[i]!;
        expect(event.uid).toBe(expected.uid);
        expect(event.summary).toBe(expected.name);
        expect(event.startDate.isDate).toBe(true);
        expect(event.startDate.toString()).toBe(expected.date);
        const lastDay = event.endDate.clone();
        lastDay.adjust(-1, 0, 0, 0);
        expect(lastDay.toString()).toBe(expected.endDate ?? expected.date);
        expect(component.getFirstPropertyValue("dtstamp")).toBeTruthy();
      });
    });
  }

  it("uses CRLF line endings and folds lines at 75 octets", async () => {
    const { text } = await feed("cn");
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const lines = text.split("\r\n");
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
  });

  it("keeps UIDs stable between requests", async () => {
    const uids = async () => (await feed("de")).text.split("\r\n").filter((l) => l.startsWith("UID:"));
    expect(await uids()).toEqual(await uids());
  });
});

describe("iCalendar text", () => {
  it("folds long multi-byte lines without splitting a character", () => {
    const line = `SUMMARY:${"Fête nationale 🇫🇷 ".repeat(12)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((part) => part.startsWith(" "))).toBe(true);
    expect(parts.map((part, i) => (i === 0 ? part : part.slice(1))).join("")).toBe(line);
  });

  it("leaves short lines alone", () => {
    expect(foldLine("SUMMARY:Neujahr")).toBe("SUMMARY:Neujahr");
    const exactly75 = `X:${"a".repeat(73)}`;
    expect(foldLine(exactly75)).toBe(exactly75);
  });

  it("escapes backslashes, semicolons, commas and newlines", () => {
    expect(escapeText("a\\b;c,d\ne")).toBe("a\\\\b\\;c\\,d\\ne");
  });
});
