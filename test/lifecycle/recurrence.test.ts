import { describe, expect, it } from "vitest";
import { CYCLE_DAYS, parseRule, searchNextDay } from "../../src/domain/tasks/occurrences";
import { nextOccurrence } from "../../src/domain/tasks/recurrence";
import { rruleProblem } from "../../src/domain/tasks/rrule";
import { formatInZone, fromFloating, toFloating } from "../../src/domain/tasks/wall-clock";

const completedAt = new Date("2026-06-10T12:00:00Z");
const next = (due: string | null, repeat: string, timeZone = "UTC", reminder?: string) =>
  nextOccurrence({ due, repeat, reminder }, timeZone, completedAt);

/** Follows a series for `n` steps, as completing each next occurrence would. */
function series(due: string, repeat: string, n: number, timeZone = "UTC", reminder?: string) {
  const out: { due: string; reminder?: string }[] = [];
  let current = { due, repeat, reminder };
  for (let i = 0; i < n; i++) {
    const step = nextOccurrence(current, timeZone, completedAt);
    if (!step) break;
    out.push(step.reminder ? { due: step.due, reminder: step.reminder } : { due: step.due });
    current = { due: step.due, repeat: step.repeat, reminder: step.reminder };
  }
  return out;
}

describe("nextOccurrence", () => {
  it("monthly on the 31st skips months without a 31st (RFC 5545)", () => {
    expect(series("2026-01-31", "FREQ=MONTHLY", 4).map((o) => o.due)).toEqual([
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
      "2026-08-31",
    ]);
  });

  it("monthly on the last day uses BYMONTHDAY=-1", () => {
    expect(series("2026-01-31", "FREQ=MONTHLY;BYMONTHDAY=-1", 3).map((o) => o.due)).toEqual([
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
  });

  it("yearly on Feb 29 comes back only in leap years", () => {
    expect(series("2024-02-29", "FREQ=YEARLY", 2).map((o) => o.due)).toEqual(["2028-02-29", "2032-02-29"]);
  });

  it("weekly BYDAY=MO,WE,FR walks Monday, Wednesday, Friday", () => {
    // 2026-06-01 is a Monday.
    expect(series("2026-06-01", "FREQ=WEEKLY;BYDAY=MO,WE,FR", 4).map((o) => o.due)).toEqual([
      "2026-06-03",
      "2026-06-05",
      "2026-06-08",
      "2026-06-10",
    ]);
  });

  it("weekly BYDAY=MO,WE,FR from an off-rule day goes to the next rule day", () => {
    // 2026-06-02 is a Tuesday.
    expect(next("2026-06-02", "FREQ=WEEKLY;BYDAY=MO,WE,FR")?.due).toBe("2026-06-03");
  });

  it("daily at 09:00 Europe/Berlin stays 09:00 local across the March change", () => {
    const days = series("2026-03-27T09:00:00+01:00", "FREQ=DAILY", 4, "Europe/Berlin");
    expect(days.map((o) => o.due)).toEqual([
      "2026-03-28T09:00:00+01:00",
      "2026-03-29T09:00:00+02:00",
      "2026-03-30T09:00:00+02:00",
      "2026-03-31T09:00:00+02:00",
    ]);
    // 23 hours between the Saturday and the Sunday occurrence.
    expect(Date.parse(days[1]!.due) - Date.parse(days[0]!.due)).toBe(23 * 3_600_000);
  });

  it("daily at 09:00 Europe/Berlin stays 09:00 local across the October change", () => {
    const days = series("2026-10-23T09:00:00+02:00", "FREQ=DAILY", 4, "Europe/Berlin");
    expect(days.map((o) => o.due)).toEqual([
      "2026-10-24T09:00:00+02:00",
      "2026-10-25T09:00:00+01:00",
      "2026-10-26T09:00:00+01:00",
      "2026-10-27T09:00:00+01:00",
    ]);
    expect(Date.parse(days[1]!.due) - Date.parse(days[0]!.due)).toBe(25 * 3_600_000);
  });

  it("reads a UTC due in the account's zone: 08:00Z in Berlin winter is 09:00 local", () => {
    expect(next("2026-03-28T08:00:00Z", "FREQ=DAILY", "Europe/Berlin")?.due).toBe("2026-03-29T09:00:00+02:00");
  });

  it("keeps the reminder's wall-clock lead over due across DST", () => {
    const [first, second] = series(
      "2026-03-28T09:00:00+01:00",
      "FREQ=DAILY",
      2,
      "Europe/Berlin",
      "2026-03-28T08:45:00+01:00",
    );
    expect(first).toEqual({ due: "2026-03-29T09:00:00+02:00", reminder: "2026-03-29T08:45:00+02:00" });
    expect(second).toEqual({ due: "2026-03-30T09:00:00+02:00", reminder: "2026-03-30T08:45:00+02:00" });
  });

  it("keeps a reminder the evening before an all-day due", () => {
    expect(next("2026-06-01", "FREQ=WEEKLY", "Europe/Berlin", "2026-05-31T18:00:00+02:00")).toEqual({
      due: "2026-06-08",
      reminder: "2026-06-07T18:00:00+02:00",
      repeat: "FREQ=WEEKLY",
    });
  });

  it("COUNT=2 gives one more occurrence with COUNT=1, then none", () => {
    const step = next("2026-06-01", "FREQ=DAILY;COUNT=2");
    expect(step).toEqual({ due: "2026-06-02", repeat: "FREQ=DAILY;COUNT=1" });
    expect(nextOccurrence({ due: step!.due, repeat: step!.repeat }, "UTC", completedAt)).toBeNull();
  });

  it("UNTIL in the past creates no next occurrence", () => {
    expect(next("2026-06-01", "FREQ=DAILY;UNTIL=20260301")).toBeNull();
  });

  it("UNTIL is inclusive", () => {
    expect(series("2026-06-01", "FREQ=DAILY;UNTIL=20260603", 5).map((o) => o.due)).toEqual([
      "2026-06-02",
      "2026-06-03",
    ]);
    expect(series("2026-06-01T09:00:00Z", "FREQ=DAILY;UNTIL=20260602T090000Z", 5).map((o) => o.due)).toEqual([
      "2026-06-02T09:00:00+00:00",
    ]);
  });

  it("without due, the completion day in the account's zone is the base", () => {
    // 2026-06-10T23:30Z is already 2026-06-11 in Berlin.
    const late = new Date("2026-06-10T23:30:00Z");
    expect(nextOccurrence({ repeat: "FREQ=DAILY" }, "UTC", late)?.due).toBe("2026-06-11");
    expect(nextOccurrence({ repeat: "FREQ=DAILY" }, "Europe/Berlin", late)?.due).toBe("2026-06-12");
  });

  it("gives up after one 400-year cycle on a rule that can never come back from this due", () => {
    // 2026-06-02 is a Tuesday; every 7 days is always a Tuesday. The work is counted in days, not timed.
    expect(next("2026-06-02", "FREQ=DAILY;INTERVAL=7;BYDAY=MO")).toBeNull();
    const tuesday = Date.parse("2026-06-02") / 86_400_000;
    expect(searchNextDay(parseRule("FREQ=DAILY;INTERVAL=7;BYDAY=MO"), tuesday)).toEqual({
      day: null,
      steps: CYCLE_DAYS,
    });
    expect(next("2026-06-01", "FREQ=DAILY;INTERVAL=7;BYDAY=MO")?.due).toBe("2026-06-08");
  });

  it("honours INTERVAL", () => {
    expect(next("2026-06-01", "FREQ=WEEKLY;INTERVAL=2")?.due).toBe("2026-06-15");
  });
});

describe("wall clock", () => {
  it("pushes a time in the spring gap forward and picks the earlier of a repeated hour", () => {
    const tz = "Europe/Berlin";
    expect(formatInZone(fromFloating(Date.parse("2026-03-29T02:30:00Z"), tz), tz)).toBe("2026-03-29T03:30:00+02:00");
    expect(formatInZone(fromFloating(Date.parse("2026-10-25T02:30:00Z"), tz), tz)).toBe("2026-10-25T02:30:00+02:00");
    expect(toFloating(Date.parse("2026-10-25T01:30:00Z"), tz)).toBe(Date.parse("2026-10-25T02:30:00Z"));
  });

  it("formats negative and fractional offsets", () => {
    expect(formatInZone(Date.parse("2026-01-15T12:00:00Z"), "America/New_York")).toBe("2026-01-15T07:00:00-05:00");
    expect(formatInZone(Date.parse("2026-01-15T12:00:00Z"), "Asia/Kolkata")).toBe("2026-01-15T17:30:00+05:30");
  });
});

describe("repeat validation", () => {
  it("refuses rules that can never occur", () => {
    expect(rruleProblem("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")).toMatch(/never occur/);
    expect(rruleProblem("FREQ=MONTHLY;BYMONTH=4,6;BYMONTHDAY=31")).toMatch(/never occur/);
    expect(rruleProblem("FREQ=DAILY;BYDAY=1MO")).toMatch(/MONTHLY or YEARLY/);
    expect(rruleProblem("FREQ=MONTHLY;BYDAY=6MO")).toMatch(/beyond 5/);
  });

  it("accepts rules that occur rarely", () => {
    expect(rruleProblem("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29")).toBeNull();
    expect(rruleProblem("FREQ=MONTHLY;BYDAY=-1FR")).toBeNull();
    expect(rruleProblem("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")).toBeNull();
  });
});
