import { useEffect, useRef, useState } from "preact/hooks";
import { etagOf } from "../../src/domain/tasks/etag";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { Task, TaskList } from "./api";
import { type Draft, draftOf, fieldProblems, patchOf, problemsOf } from "./draft";
import { TaskFields } from "./fields";
import { html } from "./html";
import { reloadTask, updateTask } from "./store";
import { ParentField, Subtasks } from "./subtasks";

/**
 * Edits one task in a modal dialog. The save changes only the fields that differ, and only the version
 * the dialog opened with (If-Match): when an agent or another device changed the task meanwhile, the
 * answer is 412 and the dialog offers to reload it, keeping what was typed until the person chooses.
 */
interface Props {
  task: Task;
  lists: TaskList[];
  /** The account's tasks: this one's subtasks, and the tasks it may become a subtask of. */
  tasks: Task[];
  timeZone: string;
  close: () => void;
  remove: (task: Task) => void;
  /** A failure that ended the session (401). */
  failed: (error: unknown) => boolean;
}

export function EditDialog({ task, lists, tasks, timeZone, close, remove, failed }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [base, setBase] = useState(task);
  const [draft, setDraft] = useState<Draft>(() => draftOf(task, timeZone));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLInputElement>("#edit-title")?.focus();
  }, []);

  const change = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const focusFirstInvalid = () =>
    setTimeout(() => dialog.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus(), 0);

  async function save(event: Event) {
    event.preventDefault();
    if (busy) return;
    const found = problemsOf(draft);
    setProblems(found);
    setError(null);
    if (Object.keys(found).length) return focusFirstInvalid();
    const patch = patchOf(base, draft, timeZone);
    if (Object.keys(patch).length === 0) return close();
    setBusy(true);
    try {
      await updateTask(base.id, patch, etagOf(base));
      announce(`Saved “${draft.title.trim()}”.`);
      close();
    } catch (e) {
      if (failed(e)) return;
      if (e instanceof ApiError && e.code === "precondition_failed") {
        setStale(true);
        setError("This task was changed elsewhere (by an agent or another device) since you opened it.");
      } else if (e instanceof ApiError && e.errors.some((x) => x.path)) {
        const { problems, unplaced } = fieldProblems(e.errors);
        setProblems(problems);
        if (unplaced) setError(e.detail);
        focusFirstInvalid();
      } else setError(e instanceof ApiError ? e.detail : "Could not save. Try again.");
    } finally {
      setBusy(false);
    }
  }

  async function reload() {
    try {
      const fresh = await reloadTask(base.id);
      setBase(fresh);
      setDraft(draftOf(fresh, timeZone));
      setStale(false);
      setError(null);
      setProblems({});
      announce("Reloaded: the dialog shows the task as it is now.");
      dialog.current?.querySelector<HTMLInputElement>("#edit-title")?.focus();
    } catch (e) {
      if (!failed(e)) setError(e instanceof ApiError ? e.detail : "Could not reload the task.");
    }
  }

  return html`
    <dialog ref=${dialog} class="dialog dialog--task" aria-labelledby="edit-heading"
      onCancel=${(event: Event) => {
        event.preventDefault();
        close();
      }}>
      <form method="dialog" novalidate onSubmit=${save}>
        <h2 id="edit-heading">Edit task</h2>
        ${
          error &&
          html`<div class="alert alert--error" role="alert">
          <p>${error}</p>
          ${
            stale &&
            html`<p class="alert__text">Your changes are still in the form. Reload to see the current task (your changes here are then discarded), or cancel.</p>
            <button type="button" class="button button--secondary" onClick=${reload}>Reload task</button>`
          }
        </div>`
        }
        <div class="field">
          <label for="edit-title">Title</label>
          <input id="edit-title" type="text" value=${draft.title} autocomplete="off"
            onInput=${(event: Event) => change({ title: (event.target as HTMLInputElement).value })}
            aria-invalid=${problems.title ? "true" : undefined}
            aria-describedby=${problems.title ? "edit-title-error" : undefined} />
          ${problems.title && html`<p id="edit-title-error" class="field-error">${problems.title}</p>`}
        </div>
        <${TaskFields} idPrefix="edit" draft=${draft} lists=${lists} problems=${problems} change=${change} />
        <${ParentField} task=${base} tasks=${tasks} value=${draft.parentId} change=${(parentId: string) => change({ parentId })} />
        <${Subtasks} task=${base} tasks=${tasks} failed=${failed} />
        <div class="dialog__actions dialog__actions--split">
          <button type="button" class="button button--danger-outline" onClick=${() => remove(base)}>Delete</button>
          <span class="dialog__actions-end">
            <button type="button" class="button button--secondary" onClick=${close}>Cancel</button>
            <button type="submit" class="button" aria-disabled=${busy ? "true" : undefined}>
              ${busy ? "Saving…" : "Save"}
            </button>
          </span>
        </div>
      </form>
    </dialog>
  `;
}
