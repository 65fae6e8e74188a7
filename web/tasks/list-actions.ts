import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { TaskList } from "./api";
import { html } from "./html";
import { deleteList, renameList } from "./store";

/** Rename a list (names unique ignoring case, as the API rules), or delete it with its tasks after a confirmation that counts them. */
interface Props {
  list: TaskList;
  /** Its live tasks, completed ones included: what deleting it deletes. */
  taskCount: number;
  deleted: () => void;
  failed: (error: unknown) => boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function ConfirmDelete({
  list,
  taskCount,
  cancel,
  confirm,
}: {
  list: TaskList;
  taskCount: number;
  cancel: () => void;
  confirm: () => Promise<string | null>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLButtonElement>(".js-cancel")?.focus();
  }, []);
  const what = taskCount ? `Delete list and ${plural(taskCount, "task")}` : "Delete list";
  return html`
    <dialog ref=${dialog} class="dialog" aria-labelledby="delete-list-heading" aria-describedby="delete-list-text"
      onCancel=${(e: Event) => {
        e.preventDefault();
        cancel();
      }}>
      <h2 id="delete-list-heading">Delete “${list.name}”?</h2>
      <p id="delete-list-text">
        ${taskCount ? `This also deletes its ${plural(taskCount, "task")}, completed ones included.` : "The list has no tasks."}
        ${" "}This cannot be undone.
      </p>
      ${error && html`<p class="alert alert--error" role="alert">${error}</p>`}
      <div class="dialog__actions">
        <button type="button" class="button button--secondary js-cancel" onClick=${cancel}>Cancel</button>
        <button type="button" class="button button--danger" aria-disabled=${busy ? "true" : undefined}
          onClick=${async () => {
            if (busy) return;
            setBusy(true);
            setError(await confirm());
            setBusy(false);
          }}>${what}</button>
      </div>
    </dialog>
  `;
}

export function ListActions({ list, taskCount, deleted, failed }: Props) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(list.name);
  const [error, setError] = useState<string | null>(null);
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

  const stopRenaming = () => {
    setRenaming(false);
    setError(null);
    focus("rename-list-button");
  };
  const startRenaming = () => {
    setName(list.name);
    setRenaming(true);
    focus("rename-list-name");
  };
  const stopConfirming = () => {
    setConfirming(false);
    focus("delete-list-button");
  };

  async function rename(event: Event) {
    event.preventDefault();
    if (!name.trim()) return setError("Give the list a name.");
    try {
      await renameList(list.id, name.trim());
      setRenaming(false);
      setError(null);
      announce(`List renamed to “${name.trim()}”.`);
      focus("view-title");
    } catch (e) {
      if (!failed(e)) setError(e instanceof ApiError ? e.detail : "Could not rename the list. Try again.");
    }
  }

  async function remove(): Promise<string | null> {
    try {
      await deleteList(list.id);
      announce(`List “${list.name}” deleted${taskCount ? `, with ${plural(taskCount, "task")}` : ""}.`);
      deleted();
      return null;
    } catch (e) {
      return failed(e) ? null : e instanceof ApiError ? e.detail : "Could not delete the list. Try again.";
    }
  }

  if (renaming)
    return html`
      <form class="rename-list" novalidate onSubmit=${rename}
        onKeyDown=${(e: KeyboardEvent) => e.key === "Escape" && stopRenaming()}>
        <label for="rename-list-name">List name</label>
        <div class="rename-list__row">
          <input id="rename-list-name" type="text" maxlength="100" autocomplete="off" value=${name}
            onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)}
            aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? "rename-list-error" : undefined} />
          <button type="submit" class="button button--small">Save name</button>
          <button type="button" class="button button--secondary button--small"
            onClick=${stopRenaming}>Cancel</button>
        </div>
        ${error && html`<p id="rename-list-error" class="field-error" role="alert">${error}</p>`}
      </form>
    `;
  return html`
    <div class="list-actions">
      <button type="button" id="rename-list-button" class="button button--secondary button--small"
        onClick=${startRenaming}>Rename list</button>
      <button type="button" id="delete-list-button" class="button button--danger-outline button--small"
        onClick=${() => setConfirming(true)}>Delete list…</button>
      ${
        confirming &&
        html`<${ConfirmDelete} list=${list} taskCount=${taskCount} confirm=${remove}
        cancel=${stopConfirming} />`
      }
    </div>
  `;
}
