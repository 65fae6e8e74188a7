import { basicDate, calendar, escapeText, nextDay } from "./ics";
import { localBasic, vtimezoneLines } from "./vtimezone";
import { floatingDate, floatingMidnight, fromFloating, toFloating } from "../tasks/wall-clock";

/**
 * An account's private feed of its open tasks that have a `due` (http/feeds.ts), in the account's
 * time zone:
 * - a date is an all-day event (DTSTART/DTEND as VALUE=DATE);
 * - a date-time is a timed event at its local wall-clock time, `DTSTART;TZID=<zone>` with the zone's
 *   VTIMEZONE, so a repeating "18:00 Europe/Berlin" stays 18:00 after a DST change, as the service's
 *   own next occurrence does (domain/tasks/recurrence.ts). A task has no length: a timed event lasts
 *   DURATION:PT30M, enough to show in a day view, and is TRANSPARENT, so it never marks the
 *   subscriber busy. DURATION, not DTEND, because it needs no zone and recurs with the rule;
 * - the task's reminder is a DISPLAY alarm relative to the start, so it recurs with the RRULE;
 * - its priority is PRIORITY (RFC 5545: 1 highest … 9 lowest, 0 or none undefined): urgent (4) is 1, high (3) is
 *   3, low (2) is 5, and "none" (1) writes none; its labels are CATEGORIES; a subtask names its parent's UID in
 *   RELATED-TO (RELTYPE=PARENT, the default), whether or not the parent has a date of its own.
 */

/** How long a timed task's event lasts in a calendar (a task has no end of its own). */
export const TIMED_EVENT_DURATION = "PT30M";

/** How many years back the VTIMEZONE's exact changes reach at most: older starts take its first offset. */
const ZONE_HISTORY_YEARS = 30;

/** The fields of a task the feed shows (domain/tasks Task). */
export interface FeedTask {
  id: string;
  title: string;
  updatedAt: string;
  due?: string;
  reminder?: string;
  repeat?: string;
  notes?: string;
  priority?: number;
  labels?: string[];
  parentId?: string;
}

/** The service's priority (4 urgent … 1 none) as iCalendar's (1 highest … 9 lowest; none left out). */
const ICAL_PRIORITY: Record<number, number> = { 4: 1, 3: 3, 2: 5 };

const uidOf = (taskId: string) => `${taskId}@tasks.todo-calendar`;

type DatedTask = FeedTask & { due: string };

/** An instant as an RFC 5545 UTC date-time: 20261224T080000Z. */
const utcBasic = (instant: number) => `${localBasic(instant)}Z`;

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
 * The task's RRULE with UNTIL in the form RFC 5545 3.3.10 requires with this DTSTART: a date for an
 * all-day event, a UTC date-time for a timed one. A task's UNTIL may be either, or a local time
 * (recurrence.ts reads a date as the whole local day).
 */
function ruleFor(repeat: string, allDay: boolean, timeZone: string): string {
  return repeat.replace(/UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?/, (_, y, mo, d, h, mi, s, z) => {
    const instant =
      h === undefined
        ? fromFloating(Date.UTC(+y, +mo - 1, +d, 23, 59, 59), timeZone)
        : z
          ? Date.UTC(+y, +mo - 1, +d, +h, +mi, +s)
          : fromFloating(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s), timeZone);
    return allDay ? `UNTIL=${basicDate(floatingDate(toFloating(instant, timeZone)))}` : `UNTIL=${utcBasic(instant)}`;
  });
}

function taskLines(task: DatedTask, timeZone: string): string[] {
  const allDay = task.due.length === 10;
  const start = allDay ? fromFloating(floatingMidnight(task.due), timeZone) : Date.parse(task.due);
  const lines = [
    "BEGIN:VEVENT",
    `UID:${uidOf(task.id)}`,
    `DTSTAMP:${utcBasic(Date.parse(task.updatedAt))}`,
    ...(allDay
      ? [`DTSTART;VALUE=DATE:${basicDate(task.due)}`, `DTEND;VALUE=DATE:${basicDate(nextDay(task.due))}`]
      : [
          `DTSTART;TZID=${timeZone}:${localBasic(toFloating(start, timeZone))}`,
          `DURATION:${TIMED_EVENT_DURATION}`,
          "TRANSP:TRANSPARENT",
        ]),
    `SUMMARY:${escapeText(task.title)}`,
    ...(task.notes ? [`DESCRIPTION:${escapeText(task.notes)}`] : []),
    ...(task.repeat ? [`RRULE:${ruleFor(task.repeat, allDay, timeZone)}`] : []),
    ...(task.priority && ICAL_PRIORITY[task.priority] ? [`PRIORITY:${ICAL_PRIORITY[task.priority]}`] : []),
    ...(task.labels?.length ? [`CATEGORIES:${task.labels.map(escapeText).join(",")}`] : []),
    ...(task.parentId ? [`RELATED-TO;RELTYPE=PARENT:${uidOf(task.parentId)}`] : []),
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

/**
 * The zone's VTIMEZONE when a timed task needs it: exact from the year before the earliest timed
 * start (at most ZONE_HISTORY_YEARS back), with today's rule carried on from next year.
 */
function zoneLines(tasks: DatedTask[], timeZone: string, now: number): string[] {
  const years = tasks
    .filter((task) => task.due.length > 10)
    .map((task) => new Date(toFloating(Date.parse(task.due), timeZone)).getUTCFullYear());
  if (years.length === 0) return [];
  const thisYear = new Date(now).getUTCFullYear();
  // From the year before the earliest start, so the first change the VTIMEZONE names precedes it.
  const from = Math.max(Math.min(...years), thisYear - ZONE_HISTORY_YEARS) - 1;
  return vtimezoneLines(timeZone, from, Math.max(thisYear, from + 1) + 1);
}

/** The feed's body; `now` only picks the years the VTIMEZONE spells out. */
export function renderTaskFeed(tasks: FeedTask[], timeZone: string, now = Date.now()): string {
  const due = tasks.filter((task): task is DatedTask => task.due !== undefined);
  return calendar("Tasks 1.0", "Tasks", "Your open tasks with a due date.", "PT1H", [
    ...zoneLines(due, timeZone, now),
    ...due.flatMap((task) => taskLines(task, timeZone)),
  ]);
}
