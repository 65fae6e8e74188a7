import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { QuickAdd } from "../../src/domain/tasks/quick-add";
import type { Task, TaskInput, TaskList } from "./api";
import { todayIn } from "./dates";
import { type Draft, emptyDraft, fieldProblems, inputOf, problemsOf } from "./draft";
import { TaskFields } from "./fields";
import { html } from "./html";
import { type ListChoice, loadParser, NewListQuestion, parseLine, QuickPreview } from "./quick-add";
import { createList, createTask } from "./store";

/**
 * One field adds a task to the current list or view, and reads quick-add tokens as it is typed
 * ("tomorrow 3pm #Work @phone p1 every monday"), with a preview of what it read. "Options" sets the
 * fields by hand; what they set wins over the typed tokens, and both over the view's defaults. A
 * `#Name` that is no list is asked about before anything is created. What was typed stays until the
 * task is created: a failed request keeps it, and a retry sends the same Idempotency-Key, so a request
 * that did arrive is not created twice.
 */
interface Props {
  defaults: Partial<Draft>;
  hint: string;
  lists: TaskList[];
  timeZone: string;
  failed: (error: unknown) => boolean;
  /** Told of each task added, so the board can say where one outside the view went. */
  added: (task: Task) => void;
}

export function AddForm({ defaults, hint, lists, timeZone, failed, added }: Props) {
  const [draft, setDraft] = useState<Draft>(emptyDraft());
  const [options, setOptions] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());
  const [asking, setAsking] = useState(false);
  const today = todayIn(timeZone);
  const [, setLoaded] = useState(false);
  const parsed = parseLine(draft.title, { now: new Date(), timeZone, lists });
  // The first focus loads the parser; the preview appears as soon as it is there.
  const load = () => void loadParser().then(() => setLoaded(true));

  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setAsking(false);
    // Something else is being asked for now: a new request, not a retry.
    setAttempt(crypto.randomUUID());
  };

  /** Options first, then the typed tokens, then the view's defaults, each only where still empty. */
  function inputWith(parsed: QuickAdd, listId: string | undefined): TaskInput {
    const input = inputOf({ ...draft, title: parsed.title }, timeZone);
    const typed: TaskInput = { due: parsed.due, repeat: parsed.repeat, listId, priority: parsed.priority };
    const view = inputOf(emptyDraft({ ...defaults, title: "-" }), timeZone);
    for (const key of ["due", "repeat", "listId", "priority"] as const)
      (input as Record<string, unknown>)[key] ??= typed[key] ?? view[key];
    const labels = [...(input.labels ?? []), ...parsed.labels, ...(view.labels ?? [])];
    const seen = new Set<string>();
    const unique = labels.filter((l) => !seen.has(l.toLowerCase()) && seen.add(l.toLowerCase()));
    if (unique.length) input.labels = unique;
    for (const key of Object.keys(input) as (keyof TaskInput)[]) if (input[key] === undefined) delete input[key];
    return input;
  }

  async function submit(event: Event, choice?: ListChoice) {
    event.preventDefault();
    if (busy) return;
    // Enter before the parser arrived: read the line with it, not as a plain title.
    await loadParser().catch(() => undefined);
    const parsed = parseLine(draft.title, { now: new Date(), timeZone, lists });
    const found = problemsOf({ ...draft, title: parsed.title });
    setProblems(found);
    setError(null);
    if (Object.keys(found).length) {
      setTimeout(() => document.querySelector<HTMLElement>(".add-form [aria-invalid=true]")?.focus(), 0);
      return;
    }
    // A typed #Name that is no list: ask first (NewListQuestion), unless Options chose a list.
    if (parsed.newList && !draft.listId && !choice) {
      setAsking(true);
      setTimeout(() => document.querySelector<HTMLElement>(".new-list-question button")?.focus(), 0);
      return;
    }
    setBusy(true);
    try {
      let listId = parsed.listId;
      if (choice) listId = choice.id ?? (await createList(parsed.newList!.name)).id;
      setAsking(false);
      const task = await createTask(inputWith(parsed, listId), attempt);
      // Options stay open: a person adding several tasks with a date or list sets the next one the same way.
      setDraft(emptyDraft());
      setAttempt(crypto.randomUUID());
      announce(`Added “${task.title}”.`);
      added(task);
      document.getElementById("new-task")?.focus();
    } catch (e) {
      if (failed(e)) return;
      // A field's problem is said once, at the field; the summary ("Invalid body: title.") only repeats it.
      const fields = e instanceof ApiError && e.errors.some((x) => x.path) ? fieldProblems(e.errors) : null;
      if (fields) {
        setProblems(fields.problems);
        setTimeout(() => document.querySelector<HTMLElement>(".add-form [aria-invalid=true]")?.focus(), 0);
      }
      if (!fields || fields.unplaced) setError(e instanceof ApiError ? e.detail : "Could not add the task. Try again.");
    } finally {
      setBusy(false);
    }
  }

  const titleProblem = problems.title;
  return html`
    <form class="add-form" novalidate onSubmit=${submit}>
      <div class="add-form__row">
        <label for="new-task" class="visually-hidden">New task</label>
        <input id="new-task" type="text" placeholder="Add a task" autocomplete="off" value=${draft.title} onFocus=${load}
          onInput=${(event: Event) => change({ title: (event.target as HTMLInputElement).value })}
          aria-invalid=${titleProblem ? "true" : undefined}
          aria-describedby=${["new-task-hint", "quick-preview", titleProblem ? "new-task-error" : "", error ? "add-error" : ""].filter(Boolean).join(" ")} />
        <button type="submit" class="button" aria-disabled=${busy ? "true" : undefined}>${busy ? "Adding…" : "Add"}</button>
      </div>
      <${QuickPreview} parsed=${parsed} lists=${lists} timeZone=${timeZone} today=${today} />
      ${
        asking &&
        parsed.newList &&
        html`<${NewListQuestion} name=${parsed.newList.name} closest=${parsed.newList.closest} lists=${lists}
          choose=${(choice: ListChoice) => submit(new Event("submit"), choice)}
          cancel=${() => {
            setAsking(false);
            document.getElementById("new-task")?.focus();
          }} />`
      }
      <p id="new-task-hint" class="hint add-form__hint">
        ${hint} Type “tomorrow 3pm”, #List, @label, p1–p4 or “every monday”.
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
