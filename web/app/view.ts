import htm from "htm";
import { h } from "preact";
import { useState } from "preact/hooks";
import { canWrite, READ_ONLY_REASON } from "./bridge";
import type { Store, Task } from "./store";

const html = htm.bind(h);

/** A form's named text fields. */
const fields = (event: Event) =>
  Object.fromEntries(new FormData(event.currentTarget as HTMLFormElement)) as Record<string, string>;

function Editor({ task, store, done }: { task: Task; store: Store; done: () => void }) {
  const save = async (event: Event) => {
    event.preventDefault();
    const { title = "", due = "" } = fields(event);
    if (await store.edit(task, { title: title.trim(), due: due.trim() })) done();
  };
  return html`<form class="edit" onSubmit=${save}>
    <input name="title" aria-label="Title" value=${task.title} required maxlength="500" />
    <input name="due" aria-label="Due" placeholder="YYYY-MM-DD" value=${task.due ?? ""} size="16" />
    <button type="submit">Save</button>
    <button type="button" onClick=${done}>Cancel</button>
  </form>`;
}

function Row({ task, store, writes }: { task: Task; store: Store; writes: boolean }) {
  const [editing, setEditing] = useState(false);
  if (editing) return html`<li>${h(Editor, { task, store, done: () => setEditing(false) })}</li>`;
  const reason = writes ? undefined : READ_ONLY_REASON;
  return html`<li class=${task.completed ? "done" : ""} data-id=${task.id}>
    <input type="checkbox" aria-label=${`Done: ${task.title}`} checked=${task.completed}
      disabled=${!writes} title=${reason} onChange=${() => store.toggle(task)} />
    <span class="title">${task.title}</span>
    ${task.due ? html`<span class="due">${task.due}</span>` : null}
    <button type="button" disabled=${!writes} title=${reason} onClick=${() => setEditing(true)}>Edit</button>
  </li>`;
}

export function View({ store }: { store: Store }) {
  const { tasks, lists, listId, showDone, error, loading } = store.state;
  const writes = canWrite();
  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const { title = "", due = "" } = fields(event);
    if (await store.add({ title: title.trim(), due: due.trim() })) form.reset();
  };
  return html`<main>
    <div class="bar">
      <select aria-label="List" value=${listId} onChange=${(e: Event) => store.filter({ listId: (e.currentTarget as HTMLSelectElement).value })}>
        <option value="">All lists</option>
        ${lists.map((list) => html`<option value=${list.id}>${list.name}</option>`)}
      </select>
      <label><input type="checkbox" checked=${showDone}
        onChange=${(e: Event) => store.filter({ showDone: (e.currentTarget as HTMLInputElement).checked })} /> Show done</label>
      <button type="button" onClick=${() => store.load()}>Refresh</button>
    </div>
    <form class="add" onSubmit=${add}>
      <input name="title" aria-label="New task" placeholder="Add a task" required maxlength="500" disabled=${!writes} />
      <input name="due" aria-label="Due" placeholder="YYYY-MM-DD" size="12" disabled=${!writes} />
      <button type="submit" disabled=${!writes} title=${writes ? undefined : READ_ONLY_REASON}>Add</button>
    </form>
    ${writes ? null : html`<p class="note" role="note">${READ_ONLY_REASON}</p>`}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${loading && tasks.length === 0 ? html`<p class="note">Loading…</p>` : null}
    ${!loading && tasks.length === 0 ? html`<p class="note">No tasks here.</p>` : null}
    <ul>${tasks.map((task) => h(Row, { key: task.id, task, store, writes }))}</ul>
  </main>`;
}
