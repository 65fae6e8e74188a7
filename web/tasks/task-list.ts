import type { Task, TaskList } from "./api";
import { describeWhen, dueDay } from "./dates";
import { repeatLabel } from "./draft";
import { html } from "./html";

/** Rows of tasks: the completion checkbox ("Complete: <title>") and the title, which opens the editor ("Edit: <title>"). */
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
}

function Meta({
  task,
  lists,
  timeZone,
  today,
}: {
  task: Task;
  lists: Map<string, TaskList>;
  timeZone: string;
  today: string;
}) {
  const overdue = !task.completed && task.due && dueDay(task.due, timeZone) < today;
  const list = task.listId ? lists.get(task.listId) : undefined;
  const parts = [
    task.due &&
      html`<span class=${overdue ? "chip chip--overdue" : "chip"}>${overdue ? "Overdue: " : "Due "}${describeWhen(task.due, timeZone, today)}</span>`,
    task.repeat && html`<span class="chip">${repeatLabel(task.repeat)}</span>`,
    task.reminder && html`<span class="chip">Reminder ${describeWhen(task.reminder, timeZone, today)}</span>`,
    task.important && html`<span class="chip chip--important">Important</span>`,
    list && html`<span class="chip chip--list">${list.name}</span>`,
    task.notes && html`<span class="chip">Notes</span>`,
  ].filter(Boolean);
  return parts.length ? html`<p class="task__meta">${parts}</p>` : null;
}

export function TaskRows({ tasks, lists, timeZone, today, toggle, edit, busy, label }: Props) {
  if (tasks.length === 0) return null;
  return html`
    <ul class="tasks" aria-label=${label}>
      ${tasks.map(
        (task) => html`
          <li key=${task.id} class=${task.completed ? "task task--done" : "task"}>
            <input type="checkbox" class="task__check" id=${`done-${task.id}`} checked=${task.completed}
              aria-label=${`Complete: ${task.title}`} aria-busy=${busy.has(task.id) ? "true" : undefined}
              onChange=${() => toggle(task)} />
            <div class="task__body">
              <button type="button" class="task__title" data-edit=${task.id} aria-label=${`Edit: ${task.title}`}
                onClick=${() => edit(task)}>${task.title}</button>
              <${Meta} task=${task} lists=${lists} timeZone=${timeZone} today=${today} />
            </div>
          </li>
        `,
      )}
    </ul>
  `;
}
