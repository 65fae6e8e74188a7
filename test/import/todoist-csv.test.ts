import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/domain/import/csv";
import { derivedId } from "../../src/domain/import/plan";
import { readTodoistCsv } from "../../src/domain/import/todoist";
import { parseTodoistDate } from "../../src/domain/import/todoist-date";
import type { AppError } from "../../src/domain/errors";
import { TODOIST_CSV } from "../support/todoist-csv";
// The parser the import verb loads before its transaction (src/lazy/load.ts), here the package itself.
import * as chrono from "chrono-node/en";

const HASH = "ab".repeat(32);
// Friday 27 November 2026, 10:00 in Berlin.
const now = new Date("2026-11-27T09:00:00Z");
const options = { fileHash: HASH, listName: "Launch", now, timeZone: "Europe/Berlin", chrono };

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected the import to fail");
};

describe("parseCsv", () => {
  it("reads quotes, commas and line breaks in fields, with each record's first line", () => {
    const records = parseCsv('\ufeffa,b\r\n"x, ""y""","two\nlines"\nlast,');
    expect(records).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ['x, "y"', "two\nlines"] },
      { line: 4, cells: ["last", ""] },
    ]);
  });

  it("fails at the line of a quote never closed", () => {
    expect(failure(() => parseCsv('a\n"open\nb')).detail).toMatch(/^Line 2: a quoted field is never closed/);
  });
});

describe("readTodoistCsv", () => {
  const plan = readTodoistCsv(TODOIST_CSV, options);
  const byLine = new Map(plan.tasks.map((t) => [t.line, t]));

  it("makes tasks with stable ids, subtasks from INDENT, notes from note rows", () => {
    expect(plan.tasks.map((t) => t.line)).toEqual([3, 6, 7, 10, 11]);
    expect(byLine.get(3)!.id).toBe(derivedId(HASH, 3));
    expect(byLine.get(6)!.parentId).toBe(byLine.get(3)!.id);
    expect(byLine.get(7)!.parentId).toBe(byLine.get(6)!.id);
    expect(byLine.get(10)!.parentId).toBeUndefined();
    expect(byLine.get(3)!.input).toMatchObject({
      title: "Plan the launch",
      notes: "The big one\n\nRemember, the venue\nneeds a deposit",
      due: "2026-12-24",
    });
    expect(plan.lists).toEqual([{ key: "list", name: "Launch" }]);
    expect(plan.tasks.every((t) => t.list === "list")).toBe(true);
  });

  it("reads English dates and repeats, and reports the dates it cannot read", () => {
    expect(byLine.get(6)!.input).toMatchObject({ due: "2026-11-30", repeat: "FREQ=WEEKLY;BYDAY=MO" });
    expect(byLine.get(7)!.input.due).toBeUndefined();
    expect(byLine.get(10)!.input.due).toBe("2026-11-28T15:00:00+01:00");
    expect(byLine.get(11)!.input.due).toBeUndefined();
    expect(plan.skipped).toEqual([
      { line: 2, reason: 'Todoist view setting "view_style=list" is not imported' },
      { line: 7, reason: 'DATE "when pigs fly" could not be read, so the task has no due date' },
      {
        line: 11,
        reason: 'DATE "morgen" is in language "de"; only English dates are read, so the task has no due date',
      },
    ]);
  });

  it("turns priorities around: Todoist's p1 is 4, an empty cell 1", () => {
    expect([3, 6, 7, 10, 11].map((line) => byLine.get(line)!.input.priority)).toEqual([4, 3, 1, 1, 2]);
  });

  it("makes labels of @words and of the section above", () => {
    expect(byLine.get(3)!.input.labels).toEqual(["work"]);
    expect(byLine.get(6)!.input.labels).toEqual(["phone", "work"]);
    expect(byLine.get(7)!.input.labels).toBeUndefined();
    expect(byLine.get(10)!.input.labels).toEqual(["Later"]);
    expect(byLine.get(11)!.input.labels).toEqual(["Later"]);
  });

  it("fails the whole file at the line it cannot read", () => {
    const header = "TYPE,CONTENT,PRIORITY,INDENT\n";
    const cases: [string, RegExp][] = [
      ["task,A,,1\ntask,B,,3", /^Line 3: INDENT 3 follows a task of INDENT 1/],
      ["task,A,,5", /^Line 2: INDENT must be 1 to 4/],
      ["task,A,7,1", /^Line 2: PRIORITY must be 1, 2, 3 or 4/],
      ["note,orphan,,", /^Line 2: a note must follow a task/],
      ["task,A,,1\nchore,B,,1", /^Line 3: TYPE must be task, section, note or meta/],
      [`task,${"x".repeat(501)},,1`, /^Line 2: title must be at most 500 characters/],
      ["task,@only,,1", /^Line 2: title must contain at least one non-space character/],
      [`task,A ${Array.from({ length: 21 }, (_, i) => `@l${i}`).join(" ")},,1`, /^Line 2: labels must have at most 20/],
    ];
    for (const [rows, message] of cases) {
      const error = failure(() => readTodoistCsv(header + rows, options));
      expect(error.code).toBe("validation_failed");
      expect(error.detail).toMatch(message);
      expect(error.detail).toMatch(/Nothing was imported\.$/);
    }
    expect(failure(() => readTodoistCsv("title,due\nA,today", options)).detail).toMatch(/^Line 1: the first line/);
  });

  it("refuses more than 5,000 tasks with a 413", () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `task,T${i},,1`).join("\n");
    const error = failure(() => readTodoistCsv(`TYPE,CONTENT,PRIORITY,INDENT\n${rows}`, options));
    expect(error.code).toBe("payload_too_large");
    expect(error.detail).toContain("5,001");
  });
});

describe("parseTodoistDate", () => {
  const read = (text: string, timeZone = "Europe/Berlin") => parseTodoistDate(text, { now, timeZone, chrono });
  it.each([
    ["Dec 24", { due: "2026-12-24" }],
    ["tomorrow", { due: "2026-11-28" }],
    ["tomorrow 3pm", { due: "2026-11-28T15:00:00+01:00" }],
    ["every day", { due: "2026-11-27", repeat: "FREQ=DAILY" }],
    ["daily", { due: "2026-11-27", repeat: "FREQ=DAILY" }],
    ["every 2 weeks", { due: "2026-11-27", repeat: "FREQ=WEEKLY;INTERVAL=2" }],
    ["every weekday", { due: "2026-11-27", repeat: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" }],
    ["every mon, wed", { due: "2026-11-30", repeat: "FREQ=WEEKLY;BYDAY=MO,WE" }],
    ["every friday at 9am", { due: "2026-11-27T09:00:00+01:00", repeat: "FREQ=WEEKLY;BYDAY=FR" }],
  ])("%s", (text, expected) => expect(read(text)).toEqual(expected));

  it.each(["when pigs fly", "every other full moon", "Dec 24 or so", "", "every"])("does not guess %j", (text) =>
    expect(read(text)).toBeUndefined(),
  );

  it("reads the day in the zone given", () => {
    // 23:30 UTC on Friday is already Saturday in Tokyo.
    expect(
      parseTodoistDate("today", { now: new Date("2026-11-27T23:30:00Z"), timeZone: "Asia/Tokyo", chrono }),
    ).toEqual({
      due: "2026-11-28",
    });
  });
});
