import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import type { TaskList } from "./api";
import { html } from "./html";
import { createList } from "./store";
import { hashOf, type Route, VIEWS } from "./views";

/**
 * The views, the account's lists and the labels on its tasks, each named exactly by its name (its open
 * count is its description), and the form that creates a list. On a narrow screen this is the menu the "Lists" button opens.
 */
interface Props {
  route: Route;
  lists: TaskList[];
  labels: string[];
  counts: Map<string, number>;
  open: boolean;
  /** Search results are showing: no view or list is the current page then. */
  searching: boolean;
  navigate: (route: Route) => void;
  failed: (error: unknown) => boolean;
}

function Item({
  route,
  current,
  name,
  count,
  navigate,
}: {
  route: Route;
  current: boolean;
  name: string;
  count?: number;
  navigate: (r: Route) => void;
}) {
  const countId = `count-${hashOf(route)
    .slice(1)
    .replace(/[^\w-]/g, "_")}`;
  // The link's name is exactly the view's or list's name; its open count, beside it, is its description.
  return html`
    <li class=${current ? "nav-entry nav-entry--current" : "nav-entry"}>
      <a href=${hashOf(route)} class="nav-item" aria-current=${current ? "page" : undefined}
        aria-describedby=${count !== undefined ? countId : undefined} onClick=${() => navigate(route)}>${name}</a>
      ${count !== undefined && html`<span id=${countId} class="nav-entry__count">${count}<span class="visually-hidden"> open</span></span>`}
    </li>
  `;
}

function NewList({ navigate, failed }: { navigate: (r: Route) => void; failed: (e: unknown) => boolean }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setEditing(false);
    setError(null);
    setTimeout(() => document.getElementById("new-list-button")?.focus(), 0);
  };
  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) return setError("Give the list a name.");
    setBusy(true);
    try {
      const list = await createList(name.trim());
      setName("");
      setEditing(false);
      setError(null);
      announce(`List “${list.name}” created.`);
      navigate({ kind: "list", id: list.id });
    } catch (e) {
      if (!failed(e)) setError(e instanceof ApiError ? e.detail : "Could not create the list. Try again.");
    } finally {
      setBusy(false);
    }
  }
  if (!editing)
    return html`<button type="button" id="new-list-button" class="button button--secondary button--small nav-new"
      onClick=${() => {
        setEditing(true);
        setTimeout(() => document.getElementById("new-list-name")?.focus(), 0);
      }}>New list</button>`;
  return html`
    <form class="new-list" novalidate onSubmit=${submit} onKeyDown=${(e: KeyboardEvent) => e.key === "Escape" && close()}>
      <label for="new-list-name">List name</label>
      <input id="new-list-name" type="text" maxlength="100" autocomplete="off" value=${name}
        onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)}
        aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? "new-list-error" : undefined} />
      ${error && html`<p id="new-list-error" class="field-error" role="alert">${error}</p>`}
      <div class="new-list__actions">
        <button type="submit" class="button button--small" aria-disabled=${busy ? "true" : undefined}>Create list</button>
        <button type="button" class="button button--secondary button--small" onClick=${close}>Cancel</button>
      </div>
    </form>
  `;
}

export function Sidebar({ route, lists, labels, counts, open, searching, navigate, failed }: Props) {
  const isCurrent = (r: Route) => !searching && r.kind === route.kind && r.id === route.id;
  return html`
    <nav id="tasks-nav" class=${open ? "tasks-nav tasks-nav--open" : "tasks-nav"} aria-label="Views and lists">
      <h2 class="nav-heading">Views</h2>
      <ul class="nav-list">
        ${VIEWS.map(([id, name]) => {
          const r: Route = { kind: "view", id };
          return html`<${Item} key=${id} route=${r} current=${isCurrent(r)} name=${name} count=${counts.get(id)} navigate=${navigate} />`;
        })}
      </ul>
      <h2 class="nav-heading">Lists</h2>
      ${lists.length === 0 && html`<p class="hint nav-empty">No lists yet.</p>`}
      <ul class="nav-list">
        ${lists.map((list) => {
          const r: Route = { kind: "list", id: list.id };
          return html`<${Item} key=${list.id} route=${r} current=${isCurrent(r)} name=${list.name} count=${counts.get(`list/${list.id}`) ?? 0} navigate=${navigate} />`;
        })}
      </ul>
      <${NewList} navigate=${navigate} failed=${failed} />
      ${
        labels.length > 0 &&
        html`<h2 class="nav-heading">Labels</h2>
        <ul class="nav-list">
          ${labels.map((label) => {
            const r: Route = { kind: "label", id: label };
            return html`<${Item} key=${label} route=${r} current=${isCurrent(r)} name=${`@${label}`} count=${counts.get(`label/${label}`) ?? 0} navigate=${navigate} />`;
          })}
        </ul>`
      }
    </nav>
  `;
}
