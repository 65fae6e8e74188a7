import { ListId } from "../tasks/values";
import { LabelInput } from "../labels/schemas";
import { ListName } from "../lists/schemas";
import { type ImportPlan, importError, MAX_IMPORT_TASKS, type PlannedTask, tooManyTasks } from "./plan";
import { checkedInput } from "./task-input";

/**
 * This service's own export (GET /account/export, format `todo-export/N`) as an import plan: its lists
 * by id and name, its labels, and its tasks with their own ids, so importing it again finds them and
 * adds nothing. The account, keys, sessions and connections in the file are not imported. For a JSON
 * file, an error's `line` is the task's place in `tasks` (1-based).
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const timestamp = (line: number, value: unknown, name: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || Number.isNaN(Date.parse(value)))
    throw importError(line, `${name} must be a date-time`);
  return new Date(value).toISOString();
};

export function readOwnExport(document: unknown): ImportPlan {
  if (!isObject(document) || typeof document.format !== "string" || !/^todo-export\/\d+$/.test(document.format)) {
    throw importError(1, 'this JSON is not an export of this service: it has no "format": "todo-export/2"');
  }
  const tasks = document.tasks ?? [];
  const lists = document.lists ?? [];
  const labels = document.labels ?? [];
  if (!Array.isArray(tasks) || !Array.isArray(lists) || !Array.isArray(labels))
    throw importError(1, "tasks, lists and labels must be arrays");
  if (tasks.length > MAX_IMPORT_TASKS) throw tooManyTasks(tasks.length);

  const plan: ImportPlan = { format: "export", lists: [], labels: [], tasks: [], skipped: [] };
  for (const list of lists) {
    const id = ListId.safeParse(isObject(list) ? list.id : undefined);
    const name = ListName.safeParse(isObject(list) ? list.name : undefined);
    if (!id.success || !name.success) throw importError(1, `a list in "lists" needs a valid id and name`);
    plan.lists.push({ key: id.data, id: id.data, name: name.data });
  }
  for (const label of labels) {
    const read = LabelInput.safeParse(isObject(label) ? { name: label.name, color: label.color ?? undefined } : {});
    if (!read.success) throw importError(1, `a label in "labels" needs a valid name and colour`);
    plan.labels.push(read.data);
  }
  const read = tasks.map((task, i) => readTask(i + 1, task, plan));
  plan.tasks = inTreeOrder(read);
  return plan;
}

function readTask(line: number, task: unknown, plan: ImportPlan): PlannedTask & { position?: string } {
  if (!isObject(task)) throw importError(line, "a task must be an object");
  const { id, listId, parentId, position, completed } = task;
  if (typeof id !== "string" || id.length < 1 || id.length > 100) throw importError(line, "the task needs its id");
  const planned: PlannedTask & { position?: string } = { id, line, input: checkedInput(line, task) };
  if (listId !== undefined) {
    if (!ListId.safeParse(listId).success) throw importError(line, "listId is not a list id");
    // A task may name a list the file does not hold: as on a create, that list is made.
    if (!plan.lists.some((l) => l.key === listId))
      plan.lists.push({ key: listId as string, id: listId as string, name: listId as string });
    planned.list = listId as string;
  }
  if (parentId !== undefined) {
    if (typeof parentId !== "string") throw importError(line, "parentId must be a task id");
    planned.parentId = parentId;
  }
  if (typeof position === "string") planned.position = position;
  if (completed === true) {
    planned.completed = true;
    planned.completedAt = timestamp(line, task.completedAt, "completedAt");
  }
  planned.createdAt = timestamp(line, task.createdAt, "createdAt");
  return planned;
}

/**
 * Parents before their subtasks, and siblings by position (fractional keys compare as plain strings),
 * so that writing them in this order, each last among its siblings, gives the order they had.
 */
function inTreeOrder(read: (PlannedTask & { position?: string })[]): PlannedTask[] {
  const ids = new Set(read.map((t) => t.id));
  const children = new Map<string | undefined, typeof read>();
  for (const task of read) {
    if (task.parentId !== undefined && !ids.has(task.parentId))
      throw importError(task.line, `parentId ${task.parentId} names no task of this file`);
    const siblings = children.get(task.parentId);
    if (siblings) siblings.push(task);
    else children.set(task.parentId, [task]);
  }
  if (ids.size < read.length) {
    const seen = new Set<string>();
    const twice = read.find((t) => seen.size === seen.add(t.id).size)!;
    throw importError(twice.line, `the id ${twice.id} is used by two tasks`);
  }
  const byPosition = (a: { position?: string }, b: { position?: string }) =>
    a.position === b.position ? 0 : (a.position ?? "") < (b.position ?? "") ? -1 : 1;
  const ordered: PlannedTask[] = [];
  const visit = (parent: string | undefined) => {
    for (const { position: _, ...task } of (children.get(parent) ?? []).sort(byPosition)) {
      ordered.push(task);
      visit(task.id);
    }
  };
  visit(undefined);
  if (ordered.length < read.length) {
    const line = read.find((t) => !ordered.some((o) => o.id === t.id))!.line;
    throw importError(line, "parentId makes a cycle: a task cannot be its own ancestor");
  }
  return ordered;
}
