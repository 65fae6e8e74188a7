import * as z from "zod";
import { rruleProblem } from "./rrule";
import { inSupportedYears, MIN_YEAR } from "./wall-clock";

/**
 * The schemas of single values, shared by REST (OpenAPI) and MCP (tool input/output schemas); the
 * object schemas Task, TaskInput and TaskPatch derive from fields.ts (see schemas.ts).
 * Lengths count Unicode code points, so a 500-emoji title is valid.
 */
const codePoints = (s: string) => [...s].length;

/**
 * Text up to `max` code points. A lone surrogate (legal in a JSON string, not in UTF-8) is first
 * replaced by U+FFFD, as a UTF-8 round trip would do anyway: stored as it was, its bytes came back
 * as three U+FFFD each, so a 500-character title grew to 1,500 and could not be sent back.
 * `overwrite` keeps the schema a plain string in OpenAPI and the MCP tool schemas.
 */
const limitedText = (max: number) =>
  z
    .string()
    .overwrite((s) => s.toWellFormed())
    .refine((s) => codePoints(s) <= max, { message: `must be at most ${max} characters` })
    .meta({ maxLength: max });

export const Title = limitedText(500)
  .refine((s) => s.trim().length > 0, { message: "must contain at least one non-space character" })
  .meta({ description: "What the task is; not only spaces.", example: "Renew passport", minLength: 1 });

export const Notes = limitedText(20000).meta({
  description: "Free-form notes.",
  example: "Bring two photos.",
});

export const ListId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, { message: "must be 1 to 100 of A-Z, a-z, 0-9, _ and -" })
  .meta({
    description: "The `id` of one of the user's lists: list_tasks with `lists: true` or GET /api/v1/lists gives them.",
    example: "errands",
  });

/** What a new list's id may hold: a `listId` that names no list and has this shape creates that list. */
export const LIST_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * A task's list, as tasks carry it (their `listId`): a list's id. Written, it may also be a list's name,
 * matched ignoring case, spaces, dashes and underscores (object/lists/names.ts).
 */
export const ListRef = z.string().min(1).max(100).meta({
  description:
    "The `id` of one of the user's lists (list_tasks with `lists: true` or GET /api/v1/lists gives them). Written, a list's name also works, ignoring case, spaces, dashes and underscores; an id that is no list's creates that list, and the answer says so.",
  example: "errands",
});

const supportedYears = { message: `must be in the year ${MIN_YEAR} or later` };

export const Due = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: "must be YYYY-MM-DD or an RFC 3339 date-time with offset, e.g. 2026-12-24 or 2026-12-24T09:00:00+01:00",
  })
  .refine(inSupportedYears, supportedYears)
  .meta({
    description: `\`YYYY-MM-DD\` for an all-day task, or an RFC 3339 date-time with offset. Years ${MIN_YEAR}–9999.`,
    example: "2026-12-24",
  });

export const Reminder = z.iso
  .datetime({
    offset: true,
    // A value that is no date-time has no year to judge: one message, not two.
    abort: true,
    // "" clears the other text fields, so models send it here too.
    error: (issue) =>
      issue.input === ""
        ? 'must be a date-time, not "": to clear a reminder send null, for none leave reminder out'
        : "must be an RFC 3339 date-time with offset, e.g. 2026-12-24T08:00:00Z",
  })
  .refine(inSupportedYears, supportedYears)
  .meta({
    description: `When to remind: an RFC 3339 date-time with offset. Years ${MIN_YEAR}–9999.`,
    example: "2026-12-24T08:00:00Z",
  });

/** What to send instead, for the two mistakes models make: the iCalendar prefix, and words for a rule. */
function repeatProblem(value: string, problem: string): string {
  const unprefixed = value.replace(/^\s*RRULE:/i, "");
  if (unprefixed !== value)
    return `must not start with "RRULE:": drop the prefix and send the rule alone, "${unprefixed}"`;
  if (!value.includes("="))
    return "must be an RRULE, not words: e.g. FREQ=DAILY, FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR (every weekday) or FREQ=MONTHLY;BYMONTHDAY=1";
  return `RRULE ${problem}`;
}

export const Repeat = z
  .string()
  .superRefine((value, ctx) => {
    const problem = rruleProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: repeatProblem(value, problem) });
  })
  .meta({
    description:
      "An RFC 5545 RRULE value without `RRULE:`. FREQ DAILY, WEEKLY, MONTHLY or YEARLY; optional INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT or UNTIL. Every weekday: FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR.",
    example: "FREQ=WEEKLY;BYDAY=MO,WE,FR",
  });

export const MAX_LABEL_NAME = 60;
export const MAX_TASK_LABELS = 20;

/** A label's name: trimmed, then 1 to 60 characters; labels match ignoring case (object/labels/). */
const labelName = z
  .string()
  .overwrite((s) => s.toWellFormed().trim())
  .refine((s) => codePoints(s) <= MAX_LABEL_NAME, { message: `must be at most ${MAX_LABEL_NAME} characters` })
  .refine((s) => s.length > 0, { message: "must contain at least one non-space character" });

export const LabelName = labelName.meta({
  description: `A label: 1 to ${MAX_LABEL_NAME} characters (spaces around it are trimmed), matched ignoring case.`,
  example: "errand",
  minLength: 1,
  maxLength: MAX_LABEL_NAME,
});

// The items carry their limits only: the array's description says the rest, once (tool schemas are a budget).
export const Labels = z
  .array(labelName.meta({ minLength: 1, maxLength: MAX_LABEL_NAME }))
  .max(MAX_TASK_LABELS, { message: `must have at most ${MAX_TASK_LABELS} labels` })
  .meta({
    description: `Label names, matched ignoring case; a new name creates the label. A patch replaces them all ([] clears).`,
    example: ["errand", "phone"],
  });

/** What a task search takes: words, each found as the start of a word in the title, notes or a label. */
export const SearchQuery = z.string().min(1).max(200).meta({
  description:
    'Words the title, notes or labels must contain, each as the start of a word, ignoring case and accents ("cafe" finds "Café").',
  example: "passport",
});

/** A calendar day, as filters take it: compared with the date a task's `due` is written with. */
export const Day = z.iso.date({ error: "must be a date, YYYY-MM-DD" }).meta({ example: "2026-12-24" });

export const Important = z.boolean().meta({ description: "Flagged as important.", example: false });
export const Completed = z.boolean().meta({ description: "Whether the task is done.", example: false });

export const TaskId = z.string().min(1).max(100).meta({
  description: "Opaque task id (a UUIDv7).",
  example: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f",
});

export const Timestamp = z.string().meta({
  description: "RFC 3339 UTC date-time with milliseconds, from the server's database clock.",
  example: "2026-11-22T10:15:30.123Z",
});

export const Since = z.iso
  .datetime({ offset: true, error: "must be an RFC 3339 date-time, e.g. the previous meta.serverTime" })
  .meta({
    description:
      "Only tasks changed at or after this instant (inclusive). Pass the previous response's `meta.serverTime`. Deleted tasks come back in `meta.deleted`.",
    example: "2026-11-22T10:15:30.123Z",
  });

export const IdempotencyKey = z
  .string()
  .regex(/^[\x20-\x7E]{1,255}$/, { message: "must be 1 to 255 printable ASCII characters" })
  .meta({
    description:
      "A unique value per intended creation, e.g. a UUID. A retry with the same key and the same body within 24 hours returns the first result and creates nothing; the same key with a different body is refused.",
    example: "5f0c6a1e-3b7d-4c2a-9e8f-1a2b3c4d5e6f",
  });

/** How many levels a task tree may have: a top-level task is level 1 (Todoist's limit). */
export const MAX_TASK_DEPTH = 4;

export const ParentId = TaskId.meta({
  description: `The \`id\` of the task this one is a subtask of, in the same list; absent on a top-level task. At most ${MAX_TASK_DEPTH} levels.`,
  example: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f",
});

export const Priority = z.number().int().min(1).max(4).meta({
  description:
    "1 none, 2 low, 3 high, 4 urgent (Todoist's scale: its p1 is 4). `important` is `priority >= 3`: setting one sets the other.",
  example: 1,
});

export const Position = z.string().meta({
  description:
    "The task's place among its siblings (same list and parent): a fractional index, compared as plain text (byte order). Read-only: move a task with `before`/`after`.",
  example: "a0",
});

export const SubtaskCounts = z
  .object({
    open: z.number().int().meta({ description: "Open subtasks.", example: 2 }),
    total: z.number().int().meta({ description: "Live subtasks.", example: 3 }),
  })
  .meta({ description: "A parent's direct subtasks; absent on a task without any." });
