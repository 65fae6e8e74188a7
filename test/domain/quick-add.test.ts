import { describe, expect, it } from "vitest";
import { parseQuickAdd, parseWhen } from "../../src/domain/tasks/quick-add";
import { rruleProblem } from "../../src/domain/tasks/rrule";

/**
 * The quick-add parser, with a pinned clock: Friday 27 November 2026, 10:00 UTC (11:00 in Berlin).
 * Each token's neighbours are here too: what must stay title text, and zones across midnight.
 */
const now = new Date("2026-11-27T10:00:00Z");
const lists = [
  { id: "work", name: "Work" },
  { id: "shop", name: "Weekly shop" },
  { id: "groceries", name: "Groceries" },
];
const parse = (text: string, timeZone = "Europe/Berlin", at = now) => parseQuickAdd(text, { now: at, timeZone, lists });

describe("parseQuickAdd", () => {
  it("reads the issue's example into title, due, list, label, priority and repeat", () => {
    expect(parse("Call Bob tomorrow 3pm #Work @phone p1 every monday")).toEqual({
      title: "Call Bob",
      due: "2026-11-28T15:00:00+01:00",
      listId: "work",
      labels: ["phone"],
      priority: 4,
      repeat: "FREQ=WEEKLY;BYDAY=MO",
    });
  });

  it("keeps the tokens' order free", () => {
    expect(parse("p1 every monday @phone #Work Call Bob tomorrow 3pm")).toEqual(
      parse("Call Bob tomorrow 3pm #Work @phone p1 every monday"),
    );
  });

  it("leaves plain text alone", () => {
    expect(parse("Buy 2 eggs")).toEqual({ title: "Buy 2 eggs", labels: [] });
    expect(parse("  Fix   3 bugs ")).toEqual({ title: "Fix 3 bugs", labels: [] });
  });

  describe("priority", () => {
    it.each([
      ["p1", 4],
      ["p2", 3],
      ["P3", 2],
      ["p4", 1],
    ])("%s is %i (Todoist's p1 is urgent)", (token, priority) => {
      expect(parse(`Pay ${token}`)).toMatchObject({ title: "Pay", priority });
    });

    it("reads the first token only; p5, p0, mp3 and p1x stay in the title", () => {
      expect(parse("p5 p0 mp3 p1x p2 p3")).toEqual({ title: "p5 p0 mp3 p1x p3", labels: [], priority: 3 });
    });
  });

  describe("labels", () => {
    it("takes @words, without trailing punctuation, once each ignoring case", () => {
      expect(parse("Ring @phone, @Errand @PHONE")).toEqual({ title: "Ring", labels: ["phone", "Errand"] });
    });

    it("leaves e-mail addresses, a lone @ and a label over 60 characters in the title", () => {
      const long = `@${"x".repeat(61)}`;
      expect(parse(`mail bob@example.com @ ${long}`)).toEqual({ title: `mail bob@example.com @ ${long}`, labels: [] });
    });
  });

  describe("lists", () => {
    it.each(["#Work", "#work", "#WORK", "#work,"])("%s matches Work", (token) => {
      expect(parse(`Report ${token}`)).toMatchObject({ title: "Report", listId: "work" });
    });

    it.each(["#Weekly-shop", "#weekly_shop", "#WEEKLY SHOP", "#Weekly shop", "#weeklyshop"])(
      "%s matches Weekly shop",
      (token) => {
        expect(parse(`Eggs ${token} @errand`)).toEqual({ title: "Eggs", listId: "shop", labels: ["errand"] });
      },
    );

    it("folds case as list names do (ß is SS)", () => {
      const street = [{ id: "street", name: "Straße" }];
      expect(parseQuickAdd("Sweep #STRASSE", { now, timeZone: "UTC", lists: street })).toMatchObject({
        listId: "street",
      });
    });

    it("matches a list by its id too", () => {
      expect(parse("Milk #groceries")).toMatchObject({ listId: "groceries" });
    });

    it("does not create a list: an unknown name comes back with the closest names, to ask", () => {
      expect(parse("Pasta #grocery")).toEqual({
        title: "Pasta",
        labels: [],
        newList: { name: "grocery", closest: ["Groceries"] },
      });
      expect(parse("Plan #Garden")).toMatchObject({ title: "Plan", newList: { name: "Garden", closest: [] } });
    });

    it("takes the first list only and leaves #5 and a lone # in the title", () => {
      expect(parse("Fix issue #5 # now #Work #Garden")).toEqual({
        title: "Fix issue #5 # now #Garden",
        labels: [],
        listId: "work",
      });
    });

    it("does not take a following word into an unknown list's name", () => {
      expect(parse("#Weekly plan")).toMatchObject({ title: "plan", newList: { name: "Weekly" } });
    });
  });

  describe("dates", () => {
    it("gives an all-day due for a day alone and a date-time for a day with a time", () => {
      expect(parse("Dentist tomorrow").due).toBe("2026-11-28");
      expect(parse("Dentist Dec 24").due).toBe("2026-12-24");
      expect(parse("Dentist on monday").due).toBe("2026-11-30");
      expect(parse("Dentist next friday noon").due).toBe("2026-12-04T12:00:00+01:00");
      expect(parse("Dentist today at 17:30")).toEqual({
        title: "Dentist",
        labels: [],
        due: "2026-11-27T17:30:00+01:00",
      });
    });

    it("reads the first date only: a later one stays in the title", () => {
      expect(parse("Plan friday for monday")).toEqual({ title: "Plan for monday", labels: [], due: "2026-11-27" });
    });

    it("writes the zone's offset of the due day, not of today (across a DST change)", () => {
      expect(parse("Call March 30 9am").due).toBe("2027-03-30T09:00:00+02:00");
      expect(parse("Call March 30 9am", "America/New_York").due).toBe("2027-03-30T09:00:00-04:00");
    });

    it("reads today and tomorrow in the account's zone, across midnight", () => {
      const lateUtc = new Date("2026-11-27T23:30:00Z"); // already Saturday in Berlin and Tokyo, still Friday in New York
      expect(parse("x today", "Europe/Berlin", lateUtc).due).toBe("2026-11-28");
      expect(parse("x tomorrow", "Asia/Tokyo", lateUtc).due).toBe("2026-11-29");
      expect(parse("x today", "America/New_York", lateUtc).due).toBe("2026-11-27");
      expect(parse("x tomorrow 8am", "America/New_York", lateUtc).due).toBe("2026-11-28T08:00:00-05:00");
      expect(parse("x today", "Pacific/Kiritimati", new Date("2026-11-27T09:59:00Z")).due).toBe("2026-11-27");
      expect(parse("x today", "Pacific/Kiritimati", new Date("2026-11-27T10:00:00Z")).due).toBe("2026-11-28");
    });

    it("leaves a month alone, 'May I' and 'Sun' in the title", () => {
      for (const title of ["Read March book", "May I call", "Sun tan lotion", "second meeting", "Buy 2 eggs"])
        expect(parse(title)).toEqual({ title, labels: [] });
    });

    it("leaves misspelt dates in the title", () => {
      expect(parse("Call tomorow")).toEqual({ title: "Call tomorow", labels: [] });
      expect(parse("Call mondya")).toEqual({ title: "Call mondya", labels: [] });
    });
  });

  describe("repeat", () => {
    it.each([
      ["every day", "FREQ=DAILY", "2026-11-27"],
      ["daily", "FREQ=DAILY", "2026-11-27"],
      ["every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-11-27"],
      ["every weekend", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-11-28"],
      ["every week", "FREQ=WEEKLY", "2026-11-27"],
      ["every monday", "FREQ=WEEKLY;BYDAY=MO", "2026-11-30"],
      ["every Friday", "FREQ=WEEKLY;BYDAY=FR", "2026-11-27"],
      ["every mon, wed and fri", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-11-27"],
      ["every other tuesday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-12-01"],
      ["every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", "2026-11-27"],
      ["every 2 weeks on monday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "2026-11-30"],
      ["every 3 days", "FREQ=DAILY;INTERVAL=3", "2026-11-27"],
      ["every month on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-12-01"],
      ["every 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-12-15"],
      ["every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-11-30"],
      ["monthly", "FREQ=MONTHLY", "2026-11-27"],
      ["every year", "FREQ=YEARLY", "2026-11-27"],
      ["every dec 24", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24", "2026-12-24"],
      ["every year on 3rd march", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3", "2027-03-03"],
    ])("%s is %s, first due %s", (phrase, repeat, due) => {
      const parsed = parse(`Water plants ${phrase}`);
      expect(parsed).toEqual({ title: "Water plants", labels: [], repeat, due });
      expect(rruleProblem(repeat)).toBeNull();
    });

    it("keeps a given day, and puts a time on the rule's first day (tomorrow when it has passed today)", () => {
      expect(parse("Standup every weekday at 9am").due).toBe("2026-11-30T09:00:00+01:00");
      expect(parse("Standup every weekday at 5pm").due).toBe("2026-11-27T17:00:00+01:00");
      expect(parse("Review every monday Dec 7")).toMatchObject({ due: "2026-12-07", repeat: "FREQ=WEEKLY;BYDAY=MO" });
    });

    it("stops the rule at the first word it cannot read", () => {
      expect(parse("every monday and Bob")).toMatchObject({ title: "and Bob", repeat: "FREQ=WEEKLY;BYDAY=MO" });
      expect(parse("Ask everyone every day")).toMatchObject({ title: "Ask everyone", repeat: "FREQ=DAILY" });
    });

    it("reports what it cannot read and leaves it in the title", () => {
      expect(parse("Water every fortnight")).toEqual({
        title: "Water every fortnight",
        labels: [],
        unparsed: ["every fortnight"],
      });
      expect(parse("Pay every feb 31")).toEqual({ title: "Pay every feb 31", labels: [], unparsed: ["every feb 31"] });
      expect(parse("Pay every 32nd")).toMatchObject({ title: "Pay every 32nd", unparsed: ["every 32nd"] });
    });
  });
});

describe("parseWhen (a date or recurrence phrase alone, as a Todoist CSV's DATE)", () => {
  const when = (text: string) => parseWhen(text, { now, timeZone: "Europe/Berlin" });

  it("reads dates and rules and reports nothing left", () => {
    expect(when("every monday")).toEqual({ due: "2026-11-30", repeat: "FREQ=WEEKLY;BYDAY=MO", unparsed: [] });
    expect(when("Dec 24")).toEqual({ due: "2026-12-24", repeat: undefined, unparsed: [] });
    expect(when("tomorrow at 3pm")).toEqual({ due: "2026-11-28T15:00:00+01:00", repeat: undefined, unparsed: [] });
  });

  it("reports the words it could not read instead of guessing", () => {
    expect(when("every fortnight")).toEqual({ due: undefined, repeat: undefined, unparsed: ["every fortnight"] });
    expect(when("no date")).toEqual({ due: undefined, repeat: undefined, unparsed: ["no date"] });
    expect(when("Dec 24 after work")).toEqual({ due: "2026-12-24", repeat: undefined, unparsed: ["after work"] });
  });
});
