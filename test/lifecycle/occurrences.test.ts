import fc from "fast-check";
import { RRule } from "rrule";
import { describe, expect, it } from "vitest";
import { nextDay, parseRule } from "../../src/domain/tasks/occurrences";
import { rruleProblem } from "../../src/domain/tasks/rrule";

/**
 * occurrences.ts against the rrule library, which computed next occurrences before it, on generated
 * rules and first occurrences. Plain and numbered weekdays are never mixed in one BYDAY here: rrule
 * requires both where RFC 5545 (and occurrences.ts) accepts either.
 */
const DAY_MS = 86_400_000;
const YEAR_DAYS = 365.2425;

const someOf = <T>(values: T[], max: number) =>
  fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: max });
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const monthDays = [...Array.from({ length: 31 }, (_, i) => i + 1), ...Array.from({ length: 31 }, (_, i) => -i - 1)];

const rule = fc
  .record({
    freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
    interval: fc.constantFrom(1, 1, 1, 2, 3, 4, 5, 7, 12),
    byMonth: fc.option(someOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 3), { nil: undefined }),
    byMonthDay: fc.option(someOf(monthDays, 3), { nil: undefined }),
    byDay: fc.option(
      fc.oneof(
        someOf(WEEKDAYS, 3),
        fc
          .tuple(someOf([1, 2, 3, 4, 5, -1, -2, -5], 2), fc.constantFrom(...WEEKDAYS))
          .map(([ns, d]) => ns.map((n) => `${n}${d}`)),
      ),
      { nil: undefined },
    ),
  })
  .map(({ freq, interval, byMonth, byMonthDay, byDay }) =>
    [
      `FREQ=${freq}`,
      interval > 1 ? `INTERVAL=${interval}` : "",
      byMonth ? `BYMONTH=${byMonth.join(",")}` : "",
      byMonthDay ? `BYMONTHDAY=${byMonthDay.join(",")}` : "",
      byDay ? `BYDAY=${byDay.join(",")}` : "",
    ]
      .filter(Boolean)
      .join(";"),
  )
  .filter((r) => rruleProblem(r) === null);

/** rrule's next day after `first` (midnight UTC as floating time), or null. */
function rruleNext(repeat: string, firstEpoch: number): number | null {
  const dtstart = new Date(firstEpoch * DAY_MS);
  const next = new RRule({ ...RRule.parseString(repeat), dtstart }).after(dtstart, false);
  return next ? Math.round(next.getTime() / DAY_MS) : null;
}

const epochOf = (year: number, dayOfYear: number) => Date.UTC(year, 0, 1) / DAY_MS + dayOfYear;

describe("next occurrence days (occurrences.ts)", () => {
  it("agrees with rrule on generated rules near today when rrule's answer is near", () => {
    fc.assert(
      fc.property(
        rule,
        fc.integer({ min: 1950, max: 2150 }),
        fc.integer({ min: 0, max: 364 }),
        (repeat, year, dayOfYear) => {
          const first = epochOf(year, dayOfYear);
          const ours = nextDay(parseRule(repeat), first);
          // rrule searches to the year 9999 when there is no next day: compare where it answers soon.
          if (ours === null || ours - first > 60 * YEAR_DAYS) return;
          expect(ours, `${repeat} from ${new Date(first * DAY_MS).toISOString().slice(0, 10)}`).toBe(
            rruleNext(repeat, first),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("agrees with rrule on generated rules started near the year 9999, where rrule gives up soon: days and none alike", () => {
    fc.assert(
      fc.property(
        rule,
        fc.integer({ min: 9700, max: 9998 }),
        fc.integer({ min: 0, max: 364 }),
        (repeat, year, dayOfYear) => {
          const first = epochOf(year, dayOfYear);
          const where = `${repeat} from ${new Date(first * DAY_MS).toISOString().slice(0, 10)}`;
          expect(nextDay(parseRule(repeat), first), where).toBe(rruleNext(repeat, first));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads plain and numbered weekdays in one BYDAY as alternatives (RFC 5545)", () => {
    // 2026-01-15 is a Thursday; the next Monday is the 19th, the first Tuesday of February the 3rd.
    const first = Date.UTC(2026, 0, 15) / DAY_MS;
    expect(nextDay(parseRule("FREQ=MONTHLY;BYDAY=MO,1TU"), first)).toBe(Date.UTC(2026, 0, 19) / DAY_MS);
    expect(nextDay(parseRule("FREQ=MONTHLY;BYDAY=1TU"), first)).toBe(Date.UTC(2026, 1, 3) / DAY_MS);
  });

  it("looks at most 400 years ahead and never past 9999-12-31", () => {
    // Every 4 years on 29 February, counted from 2025: never a leap year.
    expect(
      nextDay(parseRule("FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29"), Date.UTC(2025, 0, 1) / DAY_MS),
    ).toBeNull();
    // Every 400 years meets the next one exactly at the horizon; every 401 does not.
    expect(nextDay(parseRule("FREQ=YEARLY;INTERVAL=400"), Date.UTC(2000, 5, 1) / DAY_MS)).toBe(
      Date.UTC(2400, 5, 1) / DAY_MS,
    );
    expect(nextDay(parseRule("FREQ=YEARLY;INTERVAL=401"), Date.UTC(2000, 5, 1) / DAY_MS)).toBeNull();
    expect(nextDay(parseRule("FREQ=DAILY"), Date.UTC(9999, 11, 30) / DAY_MS)).toBe(Date.UTC(9999, 11, 31) / DAY_MS);
    expect(nextDay(parseRule("FREQ=DAILY"), Date.UTC(9999, 11, 31) / DAY_MS)).toBeNull();
  });
});
