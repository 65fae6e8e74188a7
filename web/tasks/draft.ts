import { rruleProblem } from "../../src/domain/tasks/rrule";
import type { Task, TaskInput } from "./api";
import { wallClock, zonedDateTime } from "./dates";
import { ruleLabel } from "./rule-label";

/**
 * What the task fields hold while a person types (the add form's options and the edit dialog), and how
 * that becomes a TaskInput or a TaskPatch. Dates and times are the account's zone's wall clock.
 */
export interface Draft {
  title: string;
  notes: string;
  dueDate: string;
  dueTime: string;
  reminderDate: string;
  reminderTime: string;
  /** One of REPEATS' rules, "" for none, or "custom" (then `rule`). */
  repeat: string;
  rule: string;
  /** "1" (none) … "4" (urgent), or "" when not chosen; Important is priority 3 or more (the API's rule). */
  priority: string;
  /** Labels as typed: separated by commas. */
  labels: string;
  listId: string;
  /** The parent's id, "" for a top-level task (the editor's "Subtask of"). */
  parentId: string;
}

/** Todoist's names: p1 is the API's 4. */
export const PRIORITIES: [value: string, label: string][] = [
  ["4", "P1 · urgent"],
  ["3", "P2 · high"],
  ["2", "P3 · medium"],
  ["1", "P4 · none"],
];
export const priorityLabel = (priority: number) => PRIORITIES.find(([v]) => Number(v) === priority)?.[1] ?? "";
/** The checkbox "Important" on a priority: checking lifts it to at least 3, unchecking lowers it to at most 2. */
export const isImportant = (priority: string) => Number(priority) >= 3;
export const withImportant = (priority: string, important: boolean) =>
  String(important ? Math.max(Number(priority) || 1, 3) : Math.min(Number(priority) || 1, 2));
export const labelsOf = (text: string) => {
  const seen = new Set<string>();
  return text
    .split(",")
    .map((l) => l.trim())
    .filter((l) => l && !seen.has(l.toLowerCase()) && seen.add(l.toLowerCase()));
};

export const REPEATS: [rule: string, label: string][] = [
  ["", "Does not repeat"],
  ["FREQ=DAILY", "Every day"],
  ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday"],
  ["FREQ=WEEKLY", "Every week"],
  ["FREQ=MONTHLY", "Every month"],
  ["FREQ=YEARLY", "Every year"],
  ["custom", "Custom rule (RRULE)…"],
];

export const repeatLabel = (rule: string) => REPEATS.find(([r]) => r === rule)?.[1] ?? ruleLabel(rule);

export const emptyDraft = (defaults: Partial<Draft> = {}): Draft => ({
  title: "",
  notes: "",
  dueDate: "",
  dueTime: "",
  reminderDate: "",
  reminderTime: "",
  repeat: "",
  rule: "",
  priority: "",
  labels: "",
  listId: "",
  parentId: "",
  ...defaults,
});

export function draftOf(task: Task, timeZone: string): Draft {
  const due = task.due ? (task.due.length === 10 ? { date: task.due, time: "" } : wallClock(task.due, timeZone)) : null;
  const reminder = task.reminder ? wallClock(task.reminder, timeZone) : null;
  const preset = REPEATS.some(([rule]) => rule === task.repeat && rule !== "custom");
  return emptyDraft({
    title: task.title,
    notes: task.notes ?? "",
    dueDate: due?.date ?? "",
    dueTime: due?.time ?? "",
    reminderDate: reminder?.date ?? "",
    reminderTime: reminder?.time ?? "",
    repeat: !task.repeat ? "" : preset ? task.repeat : "custom",
    rule: task.repeat && !preset ? task.repeat : "",
    priority: String(task.priority ?? (task.important ? 3 : 1)),
    labels: (task.labels ?? []).join(", "),
    listId: task.listId ?? "",
    parentId: task.parentId ?? "",
  });
}

/** A reminder date without a time reminds at this time (the form says so). */
export const REMINDER_TIME = "09:00";

const ruleOf = (d: Draft) => (d.repeat === "custom" ? d.rule.trim() : d.repeat);

/** The fields as the API takes them ("" where a field is empty). */
function valuesOf(d: Draft, timeZone: string) {
  return {
    title: d.title,
    notes: d.notes,
    due: !d.dueDate ? "" : d.dueTime ? zonedDateTime(d.dueDate, d.dueTime, timeZone) : d.dueDate,
    reminder: d.reminderDate ? zonedDateTime(d.reminderDate, d.reminderTime || REMINDER_TIME, timeZone) : "",
    repeat: ruleOf(d),
    priority: d.priority,
    labels: labelsOf(d.labels).join(","),
    listId: d.listId,
    parentId: d.parentId,
  };
}

/** Problems the page can see before sending, worded as the API words them (the same RRULE check). */
export function problemsOf(d: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!d.title.trim()) problems.title = "Give the task a title.";
  if (d.dueTime && !d.dueDate) problems.due = "Choose a due date for this time.";
  if (d.reminderTime && !d.reminderDate) problems.reminder = "Choose a reminder date for this time.";
  const rule = ruleOf(d);
  if (d.repeat === "custom" && !rule) problems.repeat = "Enter a rule, e.g. FREQ=WEEKLY;BYDAY=MO.";
  else if (rule) {
    const problem = rruleProblem(rule);
    if (problem) problems.repeat = `RRULE ${problem}`;
  }
  return problems;
}

/** The fields that show their own error (TaskFields and the title): the API's paths they answer for. */
const SHOWN = new Set(["title", "notes", "due", "reminder", "repeat", "labels", "listId"]);

/**
 * The API's field errors by field, and whether any has no field on the form (then the summary says it):
 * a problem is said once, at its field, not again as "Invalid body: title.".
 */
export function fieldProblems(errors: { path: string; message: string }[]) {
  const problems = Object.fromEntries(errors.map((x) => [x.path.split(".")[0] || "title", x.message]));
  return { problems, unplaced: Object.keys(problems).some((field) => !SHOWN.has(field)) };
}

/** A new task: only the fields that are set. */
export function inputOf(d: Draft, timeZone: string): TaskInput {
  const v = valuesOf(d, timeZone);
  const input: TaskInput = { title: v.title.trim() };
  for (const key of ["notes", "due", "reminder", "repeat", "listId"] as const) if (v[key]) input[key] = v[key];
  if (Number(v.priority) > 1) input.priority = Number(v.priority) as Task["priority"];
  const labels = labelsOf(d.labels);
  if (labels.length) input.labels = labels;
  return input;
}

/** The change from `task`: only fields that differ; "" clears, and null clears the reminder. */
export function patchOf(task: Task, d: Draft, timeZone: string): TaskInput {
  const before = valuesOf(draftOf(task, timeZone), timeZone);
  const after = valuesOf(d, timeZone);
  const patch: TaskInput = {};
  for (const key of Object.keys(after) as (keyof typeof after)[]) {
    if (before[key] === after[key]) continue;
    if (key === "priority") patch.priority = Number(after.priority || 1) as Task["priority"];
    else if (key === "labels") patch.labels = labelsOf(d.labels);
    else if (key === "reminder") patch.reminder = after.reminder || null;
    else if (key === "title") patch.title = after.title.trim();
    else patch[key] = after[key];
  }
  return patch;
}
