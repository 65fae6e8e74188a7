import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { escapeText } from "../../src/domain/calendars/ics";
import { renderTaskFeed } from "../../src/domain/calendars/task-feed";
import { call, createTask, json, maxUser } from "../helpers";

/**
 * The task feed's body against RFC 5545 as ical.js reads it: local times that survive daylight
 * saving (TZID + VTIMEZONE, expanded by ical.js), timed events' length, and text without the
 * control characters the RFC forbids (issue 35, items 5 and 10).
 */

const parse = (text: string) => new ICAL.Component(ICAL.parse(text));
const NOW = Date.UTC(2026, 10, 27);
const task = (fields: Partial<Parameters<typeof renderTaskFeed>[0][number]>) => ({
  id: "0193c4e8-8a2b-7c3d-9e4f-5a6b7c8d9e0f",
  title: "Gym",
  updatedAt: "2026-11-27T10:00:00.000Z",
  ...fields,
});

/** The first `n` occurrences of the feed's only VEVENT, as UTC instants. */
function occurrences(text: string, n: number): string[] {
  const event = new ICAL.Event(parse(text).getFirstSubcomponent("vevent")!);
  const iterator = event.iterator();
  const out: string[] = [];
  for (let next = iterator.next(); next && out.length < n; next = iterator.next()) {
    out.push(next.toJSDate().toISOString());
  }
  return out;
}

describe("timed tasks in the feed keep their local time", () => {
  it("a Mon/Wed/Fri 18:00 Europe/Berlin rule stays 18:00 after the 2027-03-28 change", () => {
    const text = renderTaskFeed(
      [task({ due: "2027-03-22T18:00:00+01:00", repeat: "FREQ=WEEKLY;BYDAY=MO,WE,FR" })],
      "Europe/Berlin",
      NOW,
    );
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20270322T180000\r\n");
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n");
    // 18:00 CET is 17:00Z until the change, 18:00 CEST is 16:00Z from Monday 29 March.
    expect(occurrences(text, 5)).toEqual([
      "2027-03-22T17:00:00.000Z",
      "2027-03-24T17:00:00.000Z",
      "2027-03-26T17:00:00.000Z",
      "2027-03-29T16:00:00.000Z",
      "2027-03-31T16:00:00.000Z",
    ]);
  });

  it("keeps applying the zone's rule years later, and in the southern hemisphere", () => {
    const berlin = renderTaskFeed(
      [task({ due: "2026-01-05T18:00:00+01:00", repeat: "FREQ=YEARLY" })],
      "Europe/Berlin",
      NOW,
    );
    // 5 January in winter, and a summer date many years on.
    expect(occurrences(berlin, 12).at(-1)).toBe("2037-01-05T17:00:00.000Z");
    const summer = renderTaskFeed(
      [task({ due: "2026-07-05T18:00:00+02:00", repeat: "FREQ=YEARLY" })],
      "Europe/Berlin",
      NOW,
    );
    expect(occurrences(summer, 12).at(-1)).toBe("2037-07-05T16:00:00.000Z");
    const sydney = renderTaskFeed(
      [task({ due: "2026-03-02T09:00:00+11:00", repeat: "FREQ=MONTHLY" })],
      "Australia/Sydney",
      NOW,
    );
    // AEDT (+11) until the first Sunday of April, AEST (+10) until the first Sunday of October.
    expect(occurrences(sydney, 9)).toEqual([
      "2026-03-01T22:00:00.000Z",
      "2026-04-01T22:00:00.000Z",
      "2026-05-01T23:00:00.000Z",
      "2026-06-01T23:00:00.000Z",
      "2026-07-01T23:00:00.000Z",
      "2026-08-01T23:00:00.000Z",
      "2026-09-01T23:00:00.000Z",
      "2026-10-01T23:00:00.000Z",
      "2026-11-01T22:00:00.000Z",
    ]);
  });

  it("writes a zone without daylight saving as one offset", () => {
    const text = renderTaskFeed(
      [task({ due: "2026-12-01T09:30:00+05:30", repeat: "FREQ=DAILY" })],
      "Asia/Kolkata",
      NOW,
    );
    expect(text).toMatch(/BEGIN:STANDARD\r\nDTSTART:\d{8}T\d{6}\r\nTZOFFSETFROM:\+0530\r\nTZOFFSETTO:\+0530\r\n/);
    expect(occurrences(text, 2)).toEqual(["2026-12-01T04:00:00.000Z", "2026-12-02T04:00:00.000Z"]);
  });

  it("gives a timed event a length and keeps an all-day one whole; UNTIL takes DTSTART's type", () => {
    const text = renderTaskFeed(
      [
        task({ due: "2027-03-22T18:00:00+01:00", repeat: "FREQ=DAILY;UNTIL=20270324" }),
        task({ id: "b", due: "2027-03-22", repeat: "FREQ=DAILY;UNTIL=20270324T120000Z" }),
      ],
      "Europe/Berlin",
      NOW,
    );
    const [timed, allDay] = parse(text)
      .getAllSubcomponents("vevent")
      .map((v) => new ICAL.Event(v));
    expect(timed!.duration.toString()).toBe("PT30M");
    expect(timed!.endDate.toJSDate().toISOString()).toBe("2027-03-22T17:30:00.000Z");
    expect(text).toContain("RRULE:FREQ=DAILY;UNTIL=20270324T225959Z\r\n");
    expect(text).toContain("RRULE:FREQ=DAILY;UNTIL=20270324\r\n");
    expect(allDay!.startDate.isDate).toBe(true);
    expect(occurrences(text, 10)).toHaveLength(3);
  });

  it("needs no VTIMEZONE without a timed task", () => {
    expect(renderTaskFeed([task({ due: "2027-03-22" })], "Europe/Berlin", NOW)).not.toContain("VTIMEZONE");
  });
});

/** Every code point RFC 5545 forbids in a value: C0 but HTAB, DEL and C1 (CR LF only as line ends). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/u;

describe("control characters in the feed", () => {
  const dirty = "a\u000bb\u0085c\u2028d\u2029e\u0000f\u007fg\u0080h\u009fi\u001bj\fk\tl\r\nm\ud800n";

  it("escapes line breaks and removes the other controls from every text value", () => {
    expect(escapeText(dirty)).toBe("a\\nb\\nc\\nd\\nefghij\\nk\tl\\nm\ufffdn");
  });

  it("serves notes and titles full of controls as bytes ical.js and the RFC accept", async () => {
    const user = await maxUser("feed-ctl");
    await call("/account", { method: "PATCH", token: user.session, body: { timeZone: "Europe/Berlin" } });
    await createTask(user.key, {
      title: `Title${"\u0085"}x${"\u2028"}y`,
      due: "2027-03-22T18:00:00+01:00",
      notes: dirty,
    });
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    const res = await call(new URL(made.url).pathname);
    expect(res.status).toBe(200);
    const text = new TextDecoder().decode(await res.arrayBuffer());
    for (const line of text.split("\r\n")) expect(line).not.toMatch(FORBIDDEN);
    const event = new ICAL.Event(parse(text).getFirstSubcomponent("vevent")!);
    expect(event.summary).toBe("Title\nx\ny");
    expect(event.description).toBe("a\nb\nc\nd\nefghij\nk\tl\nm\ufffdn");
    expect(event.startDate.toJSDate().toISOString()).toBe("2027-03-22T17:00:00.000Z");
  });
});

describe("priority, labels and subtasks in the feed (issue 34)", () => {
  it("writes PRIORITY, CATEGORIES and RELATED-TO as ical.js reads them, over the real feed", async () => {
    const user = await maxUser("feed-fields");
    const parent = await createTask(user.key, {
      title: "Launch",
      due: "2026-12-10",
      priority: 4,
      labels: ["work", "big, bold"],
    });
    await createTask(user.key, { title: "Draft post", due: "2026-12-08", parentId: parent.id, priority: 2 });
    await createTask(user.key, { title: "Plain", due: "2026-12-09" });
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    const text = await (await call(new URL(made.url).pathname)).text();
    const events = parse(text)
      .getAllSubcomponents("vevent")
      .map((e) => ({
        summary: e.getFirstPropertyValue("summary"),
        priority: e.getFirstPropertyValue("priority"),
        categories: e.getFirstProperty("categories")?.getValues() ?? [],
        related: e.getFirstProperty("related-to"),
        uid: e.getFirstPropertyValue("uid"),
      }));
    const by = Object.fromEntries(events.map((e) => [e.summary, e]));
    expect(by.Launch).toMatchObject({ priority: 1, categories: ["work", "big, bold"] });
    expect(by.Launch!.related).toBeNull();
    expect(by["Draft post"]).toMatchObject({ priority: 5, categories: [] });
    expect(by["Draft post"]!.related!.getFirstValue()).toBe(by.Launch!.uid);
    expect(by["Draft post"]!.related!.getParameter("reltype")).toBe("PARENT");
    // Priority 1 is "none": no PRIORITY at all, rather than iCalendar's lowest.
    expect(by.Plain).toMatchObject({ priority: null, categories: [] });
  });
});
