import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { Task } from "./api";
import { html } from "./html";
import { createTask } from "./store";
import { byPosition } from "./tree";

/**
 * The editor's subtask parts: which task this one is a subtask of (moving it in or out of a parent,
 * for people who do not use Alt+arrows), and the task's own subtasks with a field that adds one.
 */

const descendants = (id: string, tasks: Task[]): Set<string> => {
  const found = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of tasks)
      if (t.parentId && found.has(t.parentId) && !found.has(t.id)) {
        found.add(t.id);
        grew = true;
      }
  }
  return found;
};

export function ParentField({
  task,
  tasks,
  value,
  change,
}: {
  task: Task;
  tasks: Task[];
  value: string;
  change: (parentId: string) => void;
}) {
  const excluded = descendants(task.id, tasks);
  const candidates = tasks
    .filter((t) => !t.completed && (t.listId ?? "") === (task.listId ?? "") && !excluded.has(t.id))
    .sort((a, b) => a.title.localeCompare(b.title));
  return html`
    <div class="field">
      <label for="edit-parent">Subtask of</label>
      <select id="edit-parent" value=${value} onChange=${(e: Event) => change((e.target as HTMLSelectElement).value)}>
        <option value="">No parent (top level)</option>
        ${candidates.map((t) => html`<option value=${t.id}>${t.title}</option>`)}
      </select>
    </div>
  `;
}

export function Subtasks({ task, tasks, failed }: { task: Task; tasks: Task[]; failed: (e: unknown) => boolean }) {
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const mine = tasks.filter((t) => t.parentId === task.id).sort(byPosition);

  async function add() {
    if (busy) return;
    if (!title.trim()) return setError("Give the subtask a title.");
    setBusy(true);
    setError(null);
    try {
      const made = await createTask({ title: title.trim(), parentId: task.id }, attempt);
      setTitle("");
      setAttempt(crypto.randomUUID());
      announce(`Added subtask “${made.title}”.`);
    } catch (e) {
      if (!failed(e)) setError(e instanceof ApiError ? e.detail : "Could not add the subtask. Try again.");
    } finally {
      setBusy(false);
    }
  }

  return html`
    <fieldset class="field subtasks">
      <legend>Subtasks</legend>
      ${
        mine.length > 0
          ? html`<ul class="subtasks__list">${mine.map((t) => html`<li key=${t.id} class=${t.completed ? "subtasks__done" : ""}>${t.title}${t.completed ? html`<span class="visually-hidden"> (done)</span>` : ""}</li>`)}</ul>`
          : html`<p class="hint">No subtasks yet.</p>`
      }
      <label for="new-subtask">New subtask</label>
      <div class="subtasks__add">
        <input id="new-subtask" type="text" autocomplete="off" value=${title}
          aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? "new-subtask-error" : undefined}
          onInput=${(e: Event) => {
            setTitle((e.target as HTMLInputElement).value);
            setAttempt(crypto.randomUUID());
          }}
          onKeyDown=${(e: KeyboardEvent) => {
            // Enter adds the subtask; it must not submit (save and close) the editor around it.
            if (e.key !== "Enter") return;
            e.preventDefault();
            void add();
          }} />
        <button type="button" class="button button--secondary button--small" aria-disabled=${busy ? "true" : undefined}
          onClick=${add}>Add subtask</button>
      </div>
      ${error && html`<p id="new-subtask-error" class="field-error" role="alert">${error}</p>`}
    </fieldset>
  `;
}
