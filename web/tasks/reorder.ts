import { ApiError } from "../api";
import { announce } from "../dom";
import type { Move, Task } from "./api";
import { moveTask, store } from "./store";
import { type Row, siblingsOf } from "./tree";

/**
 * Manual order in a list: drag a row by its handle, or, with focus anywhere in the row, Alt+↑/↓ to
 * move it among its siblings and Alt+→/← to make it a subtask of the row above or to move it out of
 * its parent. Each is one POST /account/tasks/{id}/move (the session twin of REST's /move); next to a
 * sibling (`before`/`after`) a task takes that sibling's parent, so the moves send no parentId with them.
 */

export const MOVE_HINT =
  "Drag to reorder, or press Alt+Up or Alt+Down. Alt+Right makes it a subtask of the task above; Alt+Left moves it out.";

export async function place(task: Task, move: Move, said: string, failed: (error: unknown) => boolean) {
  try {
    await moveTask(task.id, move);
    announce(said);
    setTimeout(() => document.querySelector<HTMLElement>(`[data-move="${task.id}"]`)?.focus(), 0);
  } catch (e) {
    if (!failed(e)) announce(`Could not move “${task.title}”. ${e instanceof ApiError ? e.detail : ""}`);
    throw e;
  }
}

/** The move an Alt+arrow asks for, or null when there is nowhere to go. */
export function keyMove(rows: Row[], task: Task, key: string): { move: Move; said: string } | null {
  const siblings = siblingsOf(rows, task);
  const at = siblings.findIndex((t) => t.id === task.id);
  const before = siblings[at - 1];
  const after = siblings[at + 1];
  const parent = task.parentId ? store.tasks.get(task.parentId) : undefined;
  const q = (t: Task) => `“${t.title}”`;
  switch (key) {
    case "ArrowUp":
      return before ? { move: { before: before.id }, said: `Moved ${q(task)} above ${q(before)}.` } : null;
    case "ArrowDown":
      return after ? { move: { after: after.id }, said: `Moved ${q(task)} below ${q(after)}.` } : null;
    case "ArrowRight":
      return before ? { move: { parentId: before.id }, said: `${q(task)} is now a subtask of ${q(before)}.` } : null;
    case "ArrowLeft":
      return parent ? { move: { after: parent.id }, said: `Moved ${q(task)} out of ${q(parent)}.` } : null;
    default:
      return null;
  }
}

/** Where a dragged row lands: before or after the row under the pointer, as its sibling (under its parent). */
export const dropMove = (target: Task, above: boolean): Move => (above ? { before: target.id } : { after: target.id });
