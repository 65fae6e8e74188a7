import { useState } from "preact/hooks";
import type { Task, TaskList } from "./api";
import { describeWhen, dueDay } from "./dates";
import { priorityLabel, repeatLabel } from "./draft";
import { html } from "./html";
import { dropMove, keyMove, MOVE_HINT, place } from "./reorder";
import { store } from "./store";
import { treeRows } from "./tree";

/**
 * Rows of tasks: the completion checkbox ("Complete: <title>") and the title, which opens the editor
 * ("Edit: <title>"); subtasks under their parent, with a toggle that collapses them ("Subtasks: <title>");
 * where the order is manual (a list), a handle ("Move: <title>") to drag and Alt+arrows (reorder.ts).
 */
interface Props {
  tasks: Task[];
  lists: Map<string, TaskList>;
  timeZone: string;
  today: string;
  toggle: (task: Task) => void;
  edit: (task: Task) => void;
  /** Ids whose completion is being sent. */
  busy: Set<string>;
  label: string;
  /** Rows can be dragged and moved by keyboard (in a list, ordered by position). */
  reorder?: boolean;
  failed?: (error: unknown) => boolean;
}

/** Open and total subtasks per parent, from the page's copy (current after its own adds and moves). */
function subtaskCounts(): Map<string, { open: number; total: number }> {
  const counts = new Map<string, { open: number; total: number }>();
  for (const t of store.tasks.values()) {
    if (!t.parentId || store.hidden.has(t.id)) continue;
    const c = counts.get(t.parentId) ?? { open: 0, total: 0 };
    c.total++;
    if (!t.completed) c.open++;
    counts.set(t.parentId, c);
  }
  return counts;
}

function Meta({
  task,
  counts,
  lists,
  timeZone,
  today,
}: Pick<Props, "lists" | "timeZone" | "today"> & { task: Task; counts?: { open: number; total: number } }) {
  const overdue = !task.completed && task.due && dueDay(task.due, timeZone) < today;
  const list = task.listId ? lists.get(task.listId) : undefined;
  const priority = task.priority ?? (task.important ? 3 : 1);
  const parts = [
    task.due &&
      html`<span class=${overdue ? "chip chip--overdue" : "chip"}>${overdue ? "Overdue: " : "Due "}${describeWhen(task.due, timeZone, today)}</span>`,
    task.repeat && html`<span class="chip">${repeatLabel(task.repeat)}</span>`,
    task.reminder && html`<span class="chip">Reminder ${describeWhen(task.reminder, timeZone, today)}</span>`,
    priority > 1 && html`<span class=${`chip chip--p${priority}`}>${priorityLabel(priority)}</span>`,
    ...(task.labels ?? []).map((l) => html`<span class="chip chip--label">@${l}</span>`),
    counts &&
      counts.total > 0 &&
      html`<span class="chip">${counts.total - counts.open}/${counts.total} subtasks done</span>`,
    // A subtask is always in its parent's list: the parent's chip says it.
    list && !task.parentId && html`<span class="chip chip--list">${list.name}</span>`,
    task.notes && html`<span class="chip">Notes</span>`,
  ].filter(Boolean);
  return parts.length ? html`<p class="task__meta">${parts}</p>` : null;
}

export function TaskRows(props: Props) {
  const { tasks, lists, timeZone, today, toggle, edit, busy, label, reorder = false, failed = () => false } = props;
  const [collapsed, setCollapsed] = useState(() => new Set<string>());
  const [drop, setDrop] = useState<{ id: string; above: boolean } | null>(null);
  if (tasks.length === 0) return null;
  const rows = treeRows(tasks, collapsed);
  const counts = subtaskCounts();
  const flip = (id: string) =>
    setCollapsed((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const onKey = (task: Task) => (event: KeyboardEvent) => {
    if (!reorder || !event.altKey) return;
    const found = keyMove(rows, task, event.key);
    if (!found) return;
    event.preventDefault();
    void place(task, found.move, found.said, failed).catch(() => undefined);
  };
  const dropOn = (task: Task) => (event: DragEvent) => {
    event.preventDefault();
    const id = event.dataTransfer?.getData("text/plain");
    const moved = id && id !== task.id ? tasks.find((t) => t.id === id) : undefined;
    const above = drop?.above ?? true;
    setDrop(null);
    if (moved)
      void place(
        moved,
        dropMove(task, above),
        `Moved “${moved.title}” ${above ? "above" : "below"} “${task.title}”.`,
        failed,
      ).catch(() => undefined);
  };
  return html`
    ${reorder && html`<p id="move-hint" class="visually-hidden">${MOVE_HINT}</p>`}
    <ul class="tasks" aria-label=${label}>
      ${rows.map(({ task, depth, children }) => {
        const marker = drop?.id === task.id ? (drop.above ? " task--drop-above" : " task--drop-below") : "";
        return html`
          <li key=${task.id} class=${`task task--depth-${depth}${task.completed ? " task--done" : ""}${marker}`}
            onKeyDown=${onKey(task)}
            onDragOver=${
              reorder &&
              ((event: DragEvent) => {
                event.preventDefault();
                const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
                setDrop({ id: task.id, above: event.clientY < box.top + box.height / 2 });
              })
            }
            onDragLeave=${reorder && (() => setDrop(null))} onDrop=${reorder && dropOn(task)}>
            ${
              reorder &&
              html`<button type="button" class="task__handle" draggable="true" data-move=${task.id}
                aria-label=${`Move: ${task.title}`} aria-describedby="move-hint" title=${MOVE_HINT}
                onDragStart=${(event: DragEvent) => event.dataTransfer?.setData("text/plain", task.id)}><span aria-hidden="true">⠿</span></button>`
            }
            <input type="checkbox" class="task__check" id=${`done-${task.id}`} checked=${task.completed}
              aria-label=${`Complete: ${task.title}`} aria-busy=${busy.has(task.id) ? "true" : undefined}
              onChange=${() => toggle(task)} />
            <div class="task__body">
              <button type="button" class="task__title" data-edit=${task.id} aria-label=${`Edit: ${task.title}`}
                onClick=${() => edit(task)}>${task.title}</button>
              <${Meta} task=${task} counts=${counts.get(task.id) ?? task.subtaskCounts} lists=${lists} timeZone=${timeZone} today=${today} />
            </div>
            ${
              children.length > 0 &&
              html`<button type="button" class="task__fold" aria-expanded=${collapsed.has(task.id) ? "false" : "true"}
                aria-label=${`Subtasks: ${task.title}`} onClick=${() => flip(task.id)}>
                <span aria-hidden="true">${collapsed.has(task.id) ? "▸" : "▾"}</span></button>`
            }
          </li>
        `;
      })}
    </ul>
  `;
}
