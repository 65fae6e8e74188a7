import type { QuickAdd, QuickAddOptions } from "../../src/domain/tasks/quick-add";
import type { TaskList } from "./api";
import { describeWhen } from "./dates";
import { priorityLabel, repeatLabel } from "./draft";
import { html } from "./html";

/**
 * What quick add read from the typed line, shown before saving (parseQuickAdd in
 * src/domain/tasks/quick-add.ts), and the question it asks before a typed `#Name` makes a new list.
 * The parser (with chrono-node) is a separate chunk, loaded when the add field is first focused, so
 * the page shows its tasks without waiting for it.
 */

let parser: typeof import("../../src/domain/tasks/quick-add").parseQuickAdd | undefined;
let loading: Promise<unknown> | undefined;
export const loadParser = () =>
  (loading ??= import("../../src/domain/tasks/quick-add").then((m) => {
    parser = m.parseQuickAdd;
  }));
/** What the parser reads, or until it has loaded the line as a plain title. */
export const parseLine = (text: string, options: QuickAddOptions): QuickAdd =>
  parser ? parser(text, options) : { title: text.trim().replace(/\s+/g, " "), labels: [] };

export function QuickPreview({
  parsed,
  lists,
  timeZone,
  today,
}: {
  parsed: QuickAdd;
  lists: TaskList[];
  timeZone: string;
  today: string;
}) {
  const list = parsed.listId && lists.find((l) => l.id === parsed.listId);
  const items = [
    parsed.due && ["Due", describeWhen(parsed.due, timeZone, today)],
    list && ["List", list.name],
    parsed.newList && ["New list", parsed.newList.name],
    parsed.labels.length > 0 && ["Labels", parsed.labels.join(", ")],
    parsed.priority && ["Priority", priorityLabel(parsed.priority)],
    parsed.repeat && ["Repeat", repeatLabel(parsed.repeat)],
  ].filter((x): x is [string, string] => !!x);
  if (items.length === 0) return html`<div id="quick-preview" hidden></div>`;
  return html`
    <div id="quick-preview" class="quick-preview">
      <span class="visually-hidden">Will add: </span>
      <span class="chip chip--title">${parsed.title || "(no title yet)"}</span>
      ${items.map(([name, value]) => html`<span class="chip"><span class="chip__name">${name}:</span> ${value}</span>`)}
    </div>
  `;
}

export interface ListChoice {
  /** An existing list's id, or null to create the typed name. */
  id: string | null;
}

/** "grocery" is no list: create it, or use one of the closest names, or go back to the field. */
export function NewListQuestion({
  name,
  closest,
  lists,
  choose,
  cancel,
}: {
  name: string;
  closest: string[];
  lists: TaskList[];
  choose: (choice: ListChoice) => void;
  cancel: () => void;
}) {
  const named = closest.map((n) => lists.find((l) => l.name === n)).filter((l): l is TaskList => !!l);
  return html`
    <div class="alert alert--warning new-list-question" role="group" aria-labelledby="new-list-question">
      <p id="new-list-question">There is no list “${name}”.${named.length > 0 && ` Did you mean ${named.map((l) => `“${l.name}”`).join(" or ")}?`}</p>
      <div class="new-list-question__actions">
        ${named.map(
          (l) =>
            html`<button type="button" class="button button--small" onClick=${() => choose({ id: l.id })}>Use “${l.name}”</button>`,
        )}
        <button type="button" class="button button--secondary button--small" onClick=${() => choose({ id: null })}>Create list “${name}”</button>
        <button type="button" class="button button--secondary button--small" onClick=${cancel}>Cancel</button>
      </div>
    </div>
  `;
}
