import { isTimeZone } from "../tasks/wall-clock";
import { parseCsv } from "./csv";
import { derivedId, type ImportPlan, importError, MAX_IMPORT_TASKS, type PlannedTask, tooManyTasks } from "./plan";
import { type DateReader, parseTodoistDate, type ReadDate } from "./todoist-date";
import { checkedInput } from "./task-input";

/**
 * A Todoist CSV project export ("Format a CSV file to import into Todoist": TYPE, CONTENT, DESCRIPTION,
 * PRIORITY, INDENT, DATE, DATE_LANG, TIMEZONE; other columns such as AUTHOR are not read) as an import
 * plan, into one list. The rules, documented in docs/api.md:
 * - `task` rows are tasks; INDENT 2, 3, 4 make subtasks of the task above with one less.
 * - `@label` words in CONTENT become labels and leave the title.
 * - PRIORITY is Todoist's p1 (urgent) … p4 (none): this service's 4 … 1. An empty one is 1, none.
 * - `note` rows are added to the notes of the task above, each as a paragraph.
 * - `section` rows give every task below them, up to the next section, a label named after the section.
 * - DATE in English is read by parseTodoistDate; one it cannot read, or in another language, is
 *   reported in `skipped` and the task is imported without it.
 * - `meta` rows (Todoist's view settings) are reported as skipped; empty lines are ignored.
 */

const MAX_DEPTH = 4;
const LABEL = /(^|\s)@([^\s@]+)/gu;

interface Options {
  /** The SHA-256 (hex) of the file: ids derive from it and each row's line. */
  fileHash: string;
  /** The list's name: the request's `list`, or the file's name. */
  listName: string;
  now: Date;
  /** The account's zone, for a row without TIMEZONE. */
  timeZone: string;
  /** The English date parser (todoist-date.ts). */
  chrono: DateReader;
}

export function readTodoistCsv(text: string, options: Options): ImportPlan {
  const [header, ...rows] = parseCsv(text);
  const columns = new Map(header?.cells.map((name, i) => [name.trim().toUpperCase(), i]));
  if (!header || !columns.has("TYPE") || !columns.has("CONTENT")) {
    throw importError(1, "the first line must name the columns, with at least TYPE and CONTENT (a Todoist CSV export)");
  }
  const cell = (cells: string[], name: string) => cells[columns.get(name) ?? -1]?.trim() ?? "";
  const taskCount = rows.filter((r) => cell(r.cells, "TYPE") === "task").length;
  if (taskCount > MAX_IMPORT_TASKS) throw tooManyTasks(taskCount);

  const plan: ImportPlan = {
    format: "todoist",
    lists: [{ key: "list", name: options.listName }],
    labels: [],
    tasks: [],
    skipped: [],
  };
  // The last task at each depth: a subtask's parent is the last task one level up.
  const ancestors: PlannedTask[] = [];
  const dates = new Map<string, ReadDate | undefined>();
  let section: string | undefined;
  for (const { line, cells } of rows) {
    const type = cell(cells, "TYPE");
    const content = cell(cells, "CONTENT");
    if (type === "" && cells.every((c) => c.trim() === "")) continue;
    if (type === "meta") {
      plan.skipped.push({ line, reason: `Todoist view setting "${content}" is not imported` });
    } else if (type === "section") {
      if (!content) throw importError(line, "a section needs a name in CONTENT");
      section = content;
    } else if (type === "note") {
      const task = ancestors.at(-1);
      if (!task) throw importError(line, "a note must follow a task: it goes into the notes of the task above");
      const notes = task.input.notes ? `${task.input.notes}\n\n${content}` : content;
      task.input = checkedInput(line, { ...task.input, notes });
    } else if (type === "task") {
      const depth = cell(cells, "INDENT") === "" ? 1 : Number(cell(cells, "INDENT"));
      if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
        throw importError(line, `INDENT must be 1 to ${MAX_DEPTH} (a task has at most ${MAX_DEPTH} levels)`);
      if (depth > ancestors.length + 1)
        throw importError(
          line,
          `INDENT ${depth} follows a task of INDENT ${ancestors.length}: a subtask is one level below the task above`,
        );
      const task = readTask(line, cells, cell, section, options, plan, dates);
      ancestors.length = depth - 1;
      if (depth > 1) task.parentId = ancestors.at(-1)!.id;
      ancestors.push(task);
      plan.tasks.push(task);
    } else {
      throw importError(line, `TYPE must be task, section, note or meta, not "${type}"`);
    }
  }
  return plan;
}

function readTask(
  line: number,
  cells: string[],
  cell: (cells: string[], name: string) => string,
  section: string | undefined,
  { fileHash, now, timeZone, chrono }: Options,
  plan: ImportPlan,
  dates: Map<string, ReadDate | undefined>,
): PlannedTask {
  const content = cell(cells, "CONTENT");
  const labels = [...content.matchAll(LABEL)].map((m) => m[2]!);
  if (section) labels.push(section);
  const title = content.replaceAll(LABEL, "$1").replace(/\s+/g, " ").trim();
  const input: Record<string, unknown> = { title, priority: priorityOf(line, cell(cells, "PRIORITY")) };
  if (labels.length) input.labels = [...new Map(labels.map((l) => [l.toLowerCase(), l])).values()];
  const description = cell(cells, "DESCRIPTION");
  if (description) input.notes = description;
  const date = cell(cells, "DATE");
  const language = cell(cells, "DATE_LANG").toLowerCase();
  const zone = cell(cells, "TIMEZONE");
  if (date && language && language !== "en") {
    plan.skipped.push({
      line,
      reason: `DATE "${date}" is in language "${language}"; only English dates are read, so the task has no due date`,
    });
  } else if (date) {
    const key = `${zone}\n${date}`;
    // Exports repeat their dates ("every monday" on many rows), and a chrono read costs about half a millisecond.
    if (!dates.has(key))
      dates.set(key, parseTodoistDate(date, { now, timeZone: zone && isTimeZone(zone) ? zone : timeZone, chrono }));
    const read = dates.get(key);
    if (read) Object.assign(input, read);
    else plan.skipped.push({ line, reason: `DATE "${date}" could not be read, so the task has no due date` });
  }
  return { id: derivedId(fileHash, line), line, list: "list", input: checkedInput(line, input) };
}

/** Todoist's p1 (urgent) is 4 here, p4 (none) is 1; an empty cell is 1. */
function priorityOf(line: number, value: string): number {
  if (value === "") return 1;
  const p = Number(value);
  if (!Number.isInteger(p) || p < 1 || p > 4) throw importError(line, `PRIORITY must be 1, 2, 3 or 4, not "${value}"`);
  return 5 - p;
}
