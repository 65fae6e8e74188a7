import type { Task } from "./api";

/**
 * Tasks as the page shows them: a subtask under its parent when the parent is shown too (siblings in
 * their manual order, `position`), anything else where the view's order puts it. A collapsed parent
 * hides its subtasks.
 */
export interface Row {
  task: Task;
  /** 0 for a top-level row, up to 3 (the API allows four levels). */
  depth: number;
  /** The row's shown subtasks (before collapsing). */
  children: Task[];
}

/** Fractional-indexing keys compare as plain strings (not by locale); the id breaks ties. */
export const byPosition = (a: Task, b: Task) => {
  const [x, y] = [a.position ?? "", b.position ?? ""];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
};

export function treeRows(ordered: Task[], collapsed: Set<string>): Row[] {
  const shown = new Set(ordered.map((t) => t.id));
  const children = new Map<string, Task[]>();
  for (const task of ordered)
    if (task.parentId && shown.has(task.parentId))
      children.set(task.parentId, [...(children.get(task.parentId) ?? []), task]);
  const rows: Row[] = [];
  const walk = (task: Task, depth: number) => {
    const mine = (children.get(task.id) ?? []).sort(byPosition);
    rows.push({ task, depth: Math.min(depth, 3), children: mine });
    if (!collapsed.has(task.id)) for (const child of mine) walk(child, depth + 1);
  };
  for (const task of ordered) if (!task.parentId || !shown.has(task.parentId)) walk(task, 0);
  return rows;
}

/** The row's siblings among the shown rows (same parent), in the shown order. */
export const siblingsOf = (rows: Row[], task: Task) =>
  rows.filter((r) => (r.task.parentId ?? "") === (task.parentId ?? "")).map((r) => r.task);
