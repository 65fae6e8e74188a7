import type { TaskList } from "./api";
import { describeTime } from "./dates";
import { type Draft, isImportant, PRIORITIES, REMINDER_TIME, REPEATS, withImportant } from "./draft";
import { ruleLabel } from "./rule-label";
import { html } from "./html";

/**
 * The task fields below the title, shared by the add form's options and the edit dialog: notes, due,
 * reminder (with its Clear), repeat (common choices or a custom RRULE), priority (with Important, its
 * other name), labels and list. `idPrefix`
 * keeps ids unique when both are on the page; `problems` holds field errors by API path.
 */
interface Props {
  idPrefix: string;
  draft: Draft;
  lists: TaskList[];
  problems: Record<string, string>;
  change: (patch: Partial<Draft>) => void;
  withNotes?: boolean;
}

const errorOf = (id: string, problem: string | undefined) =>
  problem ? html`<p id=${id} class="field-error">${problem}</p>` : null;

export function TaskFields({ idPrefix: p, draft, lists, problems, change, withNotes = true }: Props) {
  const invalid = (field: string) => (problems[field] ? "true" : undefined);
  const describedBy = (field: string, hint?: string) =>
    [hint, problems[field] ? `${p}-${field}-error` : ""].filter(Boolean).join(" ") || undefined;
  const text = (key: keyof Draft) => (event: Event) => change({ [key]: (event.target as HTMLInputElement).value });
  return html`
    ${
      withNotes &&
      html`<div class="field">
      <label for=${`${p}-notes`}>Notes</label>
      <textarea id=${`${p}-notes`} rows="3" value=${draft.notes} onInput=${text("notes")}
        aria-invalid=${invalid("notes")} aria-describedby=${describedBy("notes")}></textarea>
      ${errorOf(`${p}-notes-error`, problems.notes)}
    </div>`
    }
    <fieldset class="field field-pair">
      <legend>Due</legend>
      <div>
        <label for=${`${p}-due-date`}>Due date</label>
        <input id=${`${p}-due-date`} type="date" value=${draft.dueDate} onInput=${text("dueDate")}
          aria-invalid=${invalid("due")} aria-describedby=${describedBy("due")} />
      </div>
      <div>
        <label for=${`${p}-due-time`}>Due time <span class="hint-inline">(optional)</span></label>
        <input id=${`${p}-due-time`} type="time" value=${draft.dueTime} onInput=${text("dueTime")} />
      </div>
      ${errorOf(`${p}-due-error`, problems.due)}
    </fieldset>
    <fieldset class="field field-pair">
      <legend>Reminder</legend>
      <div>
        <label for=${`${p}-reminder-date`}>Reminder date</label>
        <input id=${`${p}-reminder-date`} type="date" value=${draft.reminderDate} onInput=${text("reminderDate")}
          aria-invalid=${invalid("reminder")} aria-describedby=${describedBy("reminder")} />
      </div>
      <div>
        <label for=${`${p}-reminder-time`}>Reminder time</label>
        <input id=${`${p}-reminder-time`} type="time" value=${draft.reminderTime} onInput=${text("reminderTime")}
          aria-describedby=${draft.reminderDate && !draft.reminderTime ? `${p}-reminder-hint` : undefined} />
      </div>
      <button type="button" class="button button--secondary button--small"
        onClick=${() => change({ reminderDate: "", reminderTime: "" })}>Clear reminder</button>
      ${
        draft.reminderDate &&
        !draft.reminderTime &&
        html`<p id=${`${p}-reminder-hint`} class="hint field-pair__note">Without a time, the reminder comes at ${describeTime(REMINDER_TIME)}.</p>`
      }
      ${errorOf(`${p}-reminder-error`, problems.reminder)}
    </fieldset>
    <div class="field">
      <label for=${`${p}-repeat`}>Repeat</label>
      <select id=${`${p}-repeat`} value=${draft.repeat} onChange=${text("repeat")}
        aria-invalid=${draft.repeat !== "custom" ? invalid("repeat") : undefined}
        aria-describedby=${draft.repeat !== "custom" ? describedBy("repeat") : undefined}>
        ${REPEATS.map(([rule, label]) => html`<option value=${rule}>${label}</option>`)}
      </select>
      ${
        draft.repeat === "custom" &&
        html`<div class="field-sub">
        <label for=${`${p}-rule`}>Custom rule</label>
        <p id=${`${p}-rule-hint`} class="hint">An RFC 5545 RRULE, e.g. FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH</p>
        <input id=${`${p}-rule`} type="text" class="mono" value=${draft.rule} onInput=${text("rule")}
          autocomplete="off" spellcheck="false" aria-invalid=${invalid("repeat")}
          aria-describedby=${describedBy("repeat", `${p}-rule-hint`)} />
        ${
          !ruleLabel(draft.rule.trim()).startsWith("Repeats:") &&
          html`<p class="hint" aria-live="polite">In words: ${ruleLabel(draft.rule.trim())}</p>`
        }
      </div>`
      }
      ${errorOf(`${p}-repeat-error`, problems.repeat)}
    </div>
    <div class="field">
      <label for=${`${p}-priority`}>Priority</label>
      <select id=${`${p}-priority`} value=${draft.priority || "1"} onChange=${text("priority")}>
        ${PRIORITIES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
      </select>
    </div>
    <div class="field field-check">
        <input id=${`${p}-important`} type="checkbox" checked=${isImportant(draft.priority)}
          onChange=${(event: Event) => change({ priority: withImportant(draft.priority, (event.target as HTMLInputElement).checked) })} />
        <label for=${`${p}-important`}>Important</label>
    </div>
    <div class="field">
      <label for=${`${p}-labels`}>Labels</label>
      <p id=${`${p}-labels-hint`} class="hint">Separate labels with commas, e.g. errand, phone</p>
      <input id=${`${p}-labels`} type="text" value=${draft.labels} onInput=${text("labels")} autocomplete="off"
        aria-invalid=${invalid("labels")} aria-describedby=${describedBy("labels", `${p}-labels-hint`)} />
      ${errorOf(`${p}-labels-error`, problems.labels)}
    </div>
    <div class="field">
      <label for=${`${p}-list`}>List</label>
      <select id=${`${p}-list`} value=${draft.listId} onChange=${text("listId")}
        aria-invalid=${invalid("listId")} aria-describedby=${describedBy("listId")}>
        <option value="">No list</option>
        ${lists.map((list) => html`<option value=${list.id}>${list.name}</option>`)}
      </select>
      ${errorOf(`${p}-listId-error`, problems.listId)}
    </div>
  `;
}
