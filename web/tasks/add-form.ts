import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { TaskList } from "./api";
import { type Draft, emptyDraft, inputOf, problemsOf } from "./draft";
import { TaskFields } from "./fields";
import { html } from "./html";
import { createTask } from "./store";

/**
 * One field adds a task to the current list or view; "Options" sets due, reminder, repeat, important
 * and list while adding. What was typed stays until the task is created: a failed request keeps it,
 * and a retry sends the same Idempotency-Key, so a request that did arrive is not created twice.
 */
interface Props {
  defaults: Partial<Draft>;
  hint: string;
  lists: TaskList[];
  timeZone: string;
  failed: (error: unknown) => boolean;
}

export function AddForm({ defaults, hint, lists, timeZone, failed }: Props) {
  const [draft, setDraft] = useState<Draft>(emptyDraft());
  const [options, setOptions] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());

  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    // Something else is being asked for now: a new request, not a retry.
    setAttempt(crypto.randomUUID());
  };

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    // The view's defaults fill only what the person left empty.
    const filled: Draft = { ...draft };
    for (const [key, value] of Object.entries(defaults) as [keyof Draft, never][])
      if (!filled[key]) filled[key] = value;
    const found = problemsOf(filled);
    setProblems(found);
    setError(null);
    if (Object.keys(found).length) {
      setTimeout(() => document.querySelector<HTMLElement>(".add-form [aria-invalid=true]")?.focus(), 0);
      return;
    }
    setBusy(true);
    try {
      const task = await createTask(inputOf(filled, timeZone), attempt);
      setDraft(emptyDraft());
      setOptions(false);
      setAttempt(crypto.randomUUID());
      announce(`Added “${task.title}”.`);
    } catch (e) {
      if (failed(e)) return;
      if (e instanceof ApiError && e.errors.some((x) => x.path))
        setProblems(Object.fromEntries(e.errors.map((x) => [x.path.split(".")[0] || "title", x.message])));
      setError(e instanceof ApiError ? e.detail : "Could not add the task. Try again.");
    } finally {
      setBusy(false);
    }
  }

  const titleProblem = problems.title;
  return html`
    <form class="add-form" novalidate onSubmit=${submit}>
      <div class="add-form__row">
        <label for="new-task" class="visually-hidden">New task</label>
        <input id="new-task" type="text" placeholder="Add a task" autocomplete="off" value=${draft.title}
          onInput=${(event: Event) => change({ title: (event.target as HTMLInputElement).value })}
          aria-invalid=${titleProblem ? "true" : undefined}
          aria-describedby=${["new-task-hint", titleProblem ? "new-task-error" : "", error ? "add-error" : ""].filter(Boolean).join(" ")} />
        <button type="submit" class="button" aria-disabled=${busy ? "true" : undefined}>${busy ? "Adding…" : "Add"}</button>
      </div>
      <p id="new-task-hint" class="hint add-form__hint">
        ${hint}
        <button type="button" class="link-button" aria-expanded=${options ? "true" : "false"} aria-controls="add-options"
          onClick=${() => setOptions(!options)}>${options ? "Hide options" : "Options"}</button>
      </p>
      ${titleProblem && html`<p id="new-task-error" class="field-error">${titleProblem}</p>`}
      ${error && html`<p id="add-error" class="alert alert--error" role="alert">${error}</p>`}
      <div id="add-options" class="add-form__options" hidden=${!options}>
        ${
          options &&
          html`<${TaskFields} idPrefix="add" draft=${draft} lists=${lists} problems=${problems} change=${change} withNotes=${true} />`
        }
      </div>
    </form>
  `;
}
