import { listCreatedSentence, type WriteNotice } from "../../domain/lists/notice";

/**
 * The text block of the task tools' results, one renderer per kind of result: a task, a change to one
 * (created, updated, completed), a deletion, a page of tasks. A host that shows the model only text
 * must lose nothing it needs to go on: ids, titles, dates, list, priority, labels, parent, and what a
 * call changed. structuredContent keeps the full data (docs/mcp.md, "Results come once").
 */

/** A task as the renderers read it: every field optional, so a field that lands later needs no change here. */
export interface TaskView {
  id: string;
  title: string;
  completed?: boolean;
  completedAt?: string;
  due?: string;
  reminder?: string;
  repeat?: string;
  listId?: string;
  important?: boolean;
  priority?: number;
  labels?: string[];
  parentId?: string;
  notes?: string;
  subtaskCounts?: { open: number; total: number };
  subtasks?: TaskView[];
}

/** JSON quoting: quotes and line breaks in a title cannot blur where it ends. */
const quoted = (text: string) => JSON.stringify(text);

export interface LineOptions {
  /** Listings: the notes, and when a task was completed. A change does not echo what the model just sent. */
  listing?: boolean;
  /** A subtask under its parent in a tree: the parent and the list it shares go without saying. */
  under?: TaskView;
  /**
   * A change: only these fields (TaskView's names) besides id and title. The model knows the rest of
   * the task it just changed; the line confirms what the call set.
   */
  only?: string[];
}

/** `<id> "<title>"` and its fields, shortest first. */
export function taskLine(task: TaskView, { listing = false, under, only }: LineOptions = {}): string {
  if (only) task = { id: task.id, title: task.title, ...pick(task, only) };
  const facts: string[] = [];
  if (task.due) facts.push(`due ${task.due}`);
  if (task.repeat) facts.push(`repeats ${task.repeat}`);
  if (task.reminder) facts.push(`reminder ${task.reminder}`);
  if (task.listId && task.listId !== under?.listId) facts.push(`list ${quoted(task.listId)}`);
  // With priority, important is implied (priority 3 or 4); before it, the flag says it.
  if (task.priority !== undefined) {
    if (task.priority > 1) facts.push(`priority ${task.priority}`);
  } else if (task.important) facts.push("important");
  if (task.labels?.length) facts.push(`labels ${task.labels.map(quoted).join(" ")}`);
  if (task.parentId && task.parentId !== under?.id) facts.push(`subtask of ${task.parentId}`);
  if (task.subtaskCounts) facts.push(`${task.subtaskCounts.open}/${task.subtaskCounts.total} subtasks open`);
  if (task.completed) facts.push(listing && task.completedAt ? `done ${task.completedAt}` : "done");
  if (listing && task.notes) facts.push(`notes ${quoted(task.notes)}`);
  return [`${task.id} ${quoted(task.title)}`, ...facts].join(", ");
}

/** The named fields of a task; `important` goes with `priority`, as one implies the other. */
function pick(task: TaskView, names: string[]): Partial<TaskView> {
  const wanted = new Set(
    names.flatMap((name) => (name === "important" || name === "priority" ? ["important", "priority"] : [name])),
  );
  return Object.fromEntries(Object.entries(task).filter(([name]) => wanted.has(name)));
}

/** A task and, indented below it, its subtasks (a created plan, a tree). */
function tree(task: TaskView, depth = 0, under?: TaskView): string[] {
  const lines = [`${"  ".repeat(depth)}- ${taskLine(task, { under })}`];
  for (const sub of task.subtasks ?? []) lines.push(...tree(sub, depth + 1, task));
  return lines;
}

/** The side channel of a write that made a list nobody named before (domain/lists/notice.ts). */
export type ListNotice = WriteNotice;

/** `Created a new list "grocery". Did you mean Groceries? Move it with update_task.`: the domain's one wording. */
const noticeLines = (notice: ListNotice | undefined) =>
  notice?.listCreated ? [listCreatedSentence(notice.listCreated)] : [];

/** create_task: the task, its subtasks if any, and whether it was a replay. */
export function renderCreated(result: { task: TaskView; replayed?: true; notice?: ListNotice }): string {
  const head = result.replayed ? "Already created (same clientRequestId), nothing new:" : "Created:";
  return [head, ...tree(result.task), ...noticeLines(result.notice)].join("\n");
}

/** The properties a patch set, in words: `due` or `due cleared`. */
export function changedFields(patch: Record<string, unknown>): string[] {
  return Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (value === "" || value === null ? `${name} cleared` : name));
}

/** update_task and complete_task: the task after the change, what changed, and a repeating task's next one. */
export function renderChange(
  verb: "Updated" | "Completed",
  result: { task: TaskView; next?: TaskView; notice?: ListNotice; hint?: string },
  changed: string[] = [],
): string {
  const what = verb === "Updated" ? ` (${changed.join(", ") || "nothing changed"})` : "";
  // An update names the values it set; `completed` brings the state of a completion (`done`).
  const only = verb === "Updated" ? changed.map((field) => field.replace(/ cleared$/, "")) : undefined;
  const lines = [`${verb}${what}: ${taskLine(result.task, { only })}`];
  if (result.next) lines.push(`Next occurrence: ${taskLine(result.next)}`);
  if (result.hint) lines.push(result.hint);
  return [...lines, ...noticeLines(result.notice)].join("\n");
}

export const renderDeleted = ({ id }: { id: string }) => `Deleted ${id}.`;

/** list_tasks: the clock a model resolves dates with, one line per task, then paging, deletions, lists, hint. */
export function renderPage(page: {
  tasks: TaskView[];
  count: number;
  serverTime: string;
  timeZone: string;
  today: string;
  nextCursor?: string;
  deleted?: { id: string }[];
  lists?: { id: string; name: string }[];
  hint?: string;
}): string {
  const noun = page.count === 1 ? "task" : "tasks";
  const lines = [`${page.count} ${noun}; today ${page.today} (${page.timeZone}), serverTime ${page.serverTime}`];
  // A subtask that follows its parent (or a sibling under it) on the page is indented under it, as in a
  // created tree: its parent and the list it shares go without saying.
  const path: TaskView[] = [];
  for (const task of page.tasks) {
    while (path.length && path.at(-1)!.id !== task.parentId) path.pop();
    const under = path.at(-1);
    lines.push(`${"  ".repeat(path.length)}- ${taskLine(task, { listing: true, under })}`);
    path.push(task);
  }
  if (page.nextCursor) lines.push(`More: cursor ${quoted(page.nextCursor)}`);
  if (page.deleted?.length) lines.push(`Deleted since: ${page.deleted.map((t) => t.id).join(", ")}`);
  if (page.lists)
    lines.push(`Lists (id name): ${page.lists.map((l) => `${l.id} ${quoted(l.name)}`).join(", ") || "none"}`);
  if (page.hint) lines.push(`Hint: ${page.hint}`);
  return lines.join("\n");
}
