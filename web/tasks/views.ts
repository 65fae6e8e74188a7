import type { Task, TaskList } from "./api";
import { addDays, dueDay, wallClock } from "./dates";
import type { Draft } from "./draft";
import { byPosition } from "./tree";

/** What the page shows: a view over all tasks (in the account's time zone) or one list. */

export const VIEWS = [
  ["today", "Today"],
  ["upcoming", "Upcoming"],
  ["overdue", "Overdue"],
  ["important", "Important"],
  ["all", "All"],
  ["completed", "Completed"],
] as const;
export type ViewId = (typeof VIEWS)[number][0];

/** A list by its id, or a label by its name (tasks carrying it, ignoring case). */
export type Route = { kind: "view"; id: ViewId } | { kind: "list"; id: string } | { kind: "label"; id: string };

export function routeOf(hash: string): Route {
  const value = decodeURIComponent(hash.replace(/^#/, ""));
  if (value.startsWith("list/")) return { kind: "list", id: value.slice(5) };
  if (value.startsWith("label/")) return { kind: "label", id: value.slice(6) };
  const view = VIEWS.find(([id]) => id === value);
  return { kind: "view", id: view ? view[0] : "today" };
}

export const hashOf = (route: Route) =>
  route.kind === "view" ? `#${route.id}` : `#${route.kind}/${encodeURIComponent(route.id)}`;

export const hasLabel = (task: Task, label: string) =>
  (task.labels ?? []).some((l) => l.toLowerCase() === label.toLowerCase());

/** The labels on the account's tasks, each once (ignoring case), by name. */
export function labelsIn(tasks: Task[]): string[] {
  const byKey = new Map<string, string>();
  for (const task of tasks)
    for (const l of task.labels ?? []) if (!byKey.has(l.toLowerCase())) byKey.set(l.toLowerCase(), l);
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
}

/** The filters, in the account's zone on `today`. */
function matcher(route: Route, timeZone: string, today: string): (task: Task) => boolean {
  const day = (t: Task) => (t.due ? dueDay(t.due, timeZone) : "");
  if (route.kind === "list") return (t) => t.listId === route.id;
  if (route.kind === "label") return (t) => !t.completed && hasLabel(t, route.id);
  const open = {
    today: (t: Task) => day(t) === today,
    upcoming: (t: Task) => day(t) > today,
    overdue: (t: Task) => !!t.due && day(t) < today,
    important: (t: Task) => t.important,
    all: () => true,
  };
  if (route.id === "completed") return (t) => t.completed;
  const test = open[route.id];
  return (t) => !t.completed && test(t);
}

/** Due tasks first, by day and time (all-day before timed), then the rest in the order they were made. */
function sortKey(task: Task, timeZone: string): string {
  if (!task.due) return `~${task.id}`;
  const time = task.due.length === 10 ? "" : `T${wallClock(task.due, timeZone).time}`;
  return `${dueDay(task.due, timeZone)}${time} ${task.id}`;
}

export interface Shown {
  open: Task[];
  completed: Task[];
}

/**
 * The route's tasks: open ones, and (in a list) its completed ones apart. `lingering` tasks, just
 * completed or reopened here, stay where they are until the person moves on, so focus and a second
 * click (to undo) stay where they were.
 */
export function shownTasks(
  route: Route,
  tasks: Task[],
  timeZone: string,
  today: string,
  lingering: Set<string>,
): Shown {
  const matches = matcher(route, timeZone, today);
  const inList = route.kind === "list" ? tasks.filter((t) => t.listId === route.id) : [];
  const shown =
    route.kind === "list"
      ? inList.filter((t) => !t.completed || lingering.has(t.id))
      : tasks.filter((t) => matches(t) || lingering.has(t.id));
  const byKey = (a: Task, b: Task) => (sortKey(a, timeZone) < sortKey(b, timeZone) ? -1 : 1);
  const byCompletion = (a: Task, b: Task) => ((a.completedAt ?? "") > (b.completedAt ?? "") ? -1 : 1);
  const completedView = route.kind === "view" && route.id === "completed";
  // A list is in its manual order (drag, Alt+arrows); the views by day.
  return {
    open: shown.sort(completedView ? byCompletion : route.kind === "list" ? byPosition : byKey),
    completed: inList.filter((t) => t.completed && !lingering.has(t.id)).sort(byCompletion),
  };
}

/** Open tasks per view and per list, for the navigation. */
export function openCounts(tasks: Task[], lists: TaskList[], timeZone: string, today: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [id] of VIEWS) {
    if (id === "completed") continue;
    const matches = matcher({ kind: "view", id }, timeZone, today);
    counts.set(id, tasks.filter(matches).length);
  }
  for (const list of lists)
    counts.set(`list/${list.id}`, tasks.filter((t) => t.listId === list.id && !t.completed).length);
  for (const label of labelsIn(tasks))
    counts.set(`label/${label}`, tasks.filter((t) => !t.completed && hasLabel(t, label)).length);
  return counts;
}

/** What a task added here gets without being asked: the list, or the view's day or flag. */
export function addDefaults(route: Route, today: string): { draft: Partial<Draft>; hint: string } {
  if (route.kind === "list") return { draft: { listId: route.id }, hint: "" };
  if (route.kind === "label") return { draft: { labels: route.id }, hint: `Labelled ${route.id}.` };
  if (route.id === "today") return { draft: { dueDate: today }, hint: "Due today." };
  if (route.id === "upcoming") return { draft: { dueDate: addDays(today, 1) }, hint: "Due tomorrow." };
  if (route.id === "important") return { draft: { priority: "3" }, hint: "Marked important." };
  return { draft: {}, hint: "" };
}

/** Where a task that the current view does not show can be found: its list, else the view of its day. */
export function homeOf(task: Task, lists: Map<string, TaskList>, timeZone: string, today: string) {
  const list = task.listId ? lists.get(task.listId) : undefined;
  if (list) return { route: { kind: "list", id: list.id } as Route, name: list.name };
  const day = task.due ? dueDay(task.due, timeZone) : "";
  const id: ViewId = !day ? "all" : day === today ? "today" : day > today ? "upcoming" : "overdue";
  return { route: { kind: "view", id } as Route, name: VIEWS.find(([v]) => v === id)![1] };
}
