import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import { AddForm } from "./add-form";
import type { Task } from "./api";
import { describeWhen, todayIn } from "./dates";
import { EditDialog } from "./edit-dialog";
import { html } from "./html";
import { ListActions } from "./list-actions";
import { SearchField, type SearchResult } from "./search";
import { Sidebar } from "./sidebar";
import { PushSetting } from "./push-setting";
import { notify, removeTask, store, sync, UNDO_MS, updateTask } from "./store";
import { TaskRows } from "./task-list";
import { TimeZoneOffer, TimeZoneSetting } from "./timezone";
import { Toast, type ToastMessage } from "./toast";
import { addDefaults, hashOf, homeOf, labelsIn, openCounts, type Route, routeOf, shownTasks, VIEWS } from "./views";

/** The signed-in page: navigation, the current view or list, search, the editor and the messages. */
interface Props {
  accountId: string;
  timeZone: string;
  setTimeZone: (zone: string) => void;
  failed: (error: unknown) => boolean;
}

const EMPTY: Record<string, string> = {
  today: "Nothing due today.",
  upcoming: "Nothing due after today.",
  overdue: "Nothing overdue.",
  important: "No important open tasks.",
  all: "No open tasks. Add one above.",
  completed: "No completed tasks yet.",
  list: "No open tasks in this list.",
  label: "No open tasks with this label.",
};

const focusSoon = (selector: string, fallback = "#view-title") =>
  setTimeout(
    () => (document.querySelector<HTMLElement>(selector) ?? document.querySelector<HTMLElement>(fallback))?.focus(),
    0,
  );

export function Board({ accountId, timeZone, setTimeZone, failed }: Props) {
  const [route, setRoute] = useState<Route>(() => routeOf(location.hash));
  const [menu, setMenu] = useState(false);
  const [lingering, setLingering] = useState(() => new Set<string>());
  const [busy] = useState(() => new Set<string>());
  const [editing, setEditing] = useState<Task | null>(null);
  const [search, setSearch] = useState<SearchResult | null>(null);
  // A new key empties the search field when the person moves to a view or list.
  const [searchKey, setSearchKey] = useState(0);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);

  useEffect(() => {
    const follow = () => {
      setRoute(routeOf(location.hash));
      setLingering(new Set());
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  const today = todayIn(timeZone);
  const live = [...store.tasks.values()].filter((t) => !store.hidden.has(t.id));
  const lists = [...store.lists.values()].sort((a, b) => a.name.localeCompare(b.name));
  const list = route.kind === "list" ? store.lists.get(route.id) : undefined;
  const title = search
    ? `Search: “${search.query}”`
    : route.kind === "list"
      ? (list?.name ?? "List not found")
      : route.kind === "label"
        ? `@${route.id}`
        : VIEWS.find(([id]) => id === route.id)![1];
  const shown = shownTasks(route, live, timeZone, today, lingering);
  const results = search
    ? search.ids.map((id) => store.tasks.get(id)).filter((t): t is Task => !!t && !store.hidden.has(t.id))
    : null;
  const { draft: defaults, hint } = addDefaults(route, today);
  const say = (text: string, action?: ToastMessage["action"], ttl = 6000) =>
    setToast({ id: Date.now(), text, action, ttl });

  function navigate(next: Route) {
    setMenu(false);
    if (search) {
      setSearch(null);
      setSearchKey((k) => k + 1);
    }
    if (hashOf(next) === location.hash) setLingering(new Set());
    else location.hash = hashOf(next);
    focusSoon("#view-title");
  }

  async function toggle(task: Task) {
    const original = store.tasks.get(task.id) ?? task;
    const completed = !original.completed;
    setLingering((s) => new Set(s).add(task.id));
    busy.add(task.id);
    store.tasks.set(task.id, { ...original, completed });
    notify();
    try {
      const next = await updateTask(task.id, { completed });
      announce(`${completed ? "Completed" : "Reopened"} “${task.title}”.`);
      // Completing a parent completes its subtasks, and reopening a subtask reopens its parent: fetch them.
      if (task.parentId || [...store.tasks.values()].some((t) => t.parentId === task.id)) void sync();
      if (next)
        say(`“${task.title}” is done. Next: ${next.due ? describeWhen(next.due, timeZone, today) : "created"}.`, {
          label: "Edit next",
          run: () => setEditing(store.tasks.get(next.id) ?? next),
        });
    } catch (e) {
      store.tasks.set(task.id, original);
      notify();
      if (!failed(e))
        setPageError(
          `Could not ${completed ? "complete" : "reopen"} “${task.title}”. ${e instanceof ApiError ? e.detail : ""}`,
        );
    } finally {
      busy.delete(task.id);
    }
  }

  function remove(task: Task) {
    setEditing(null);
    const removal = removeTask(task.id, (e) => {
      if (!failed(e))
        setPageError(`Could not delete “${task.title}”; it is still there. ${e instanceof ApiError ? e.detail : ""}`);
    });
    // Focus goes to Undo (Enter restores, Escape dismisses); the delete waits while the message is held.
    setToast({
      id: Date.now(),
      text: `Deleted “${task.title}”.`,
      ttl: UNDO_MS,
      focus: true,
      paused: removal.hold,
      focusAfter: () => focusSoon("#view-title"),
      action: {
        label: "Undo",
        run: () => {
          removal.undo();
          announce(`“${task.title}” restored.`);
          focusSoon(`[data-edit="${task.id}"]`);
        },
      },
    });
  }

  /** A task added here that this view does not show: say where it went, with a way there. */
  function added(task: Task) {
    if (shownTasks(route, [task], timeZone, today, new Set()).open.length) return;
    const home = homeOf(task, store.lists, timeZone, today);
    say(`Added “${task.title}” to ${home.name}: it is not in this view.`, {
      label: `Show ${home.name}`,
      run: () => navigate(home.route),
    });
  }

  const closeEditor = () => {
    const id = editing?.id;
    setEditing(null);
    focusSoon(`[data-edit="${id}"]`);
  };
  const rows = (tasks: Task[], label: string, reorder = false) =>
    html`<${TaskRows} tasks=${tasks} lists=${store.lists} timeZone=${timeZone} today=${today} toggle=${toggle} edit=${setEditing} busy=${busy} label=${label} reorder=${reorder} failed=${failed} />`;
  const completedView = route.kind === "view" && route.id === "completed";

  return html`
    <div class="tasks-layout">
      <div class="tasks-bar">
        <button type="button" class="button button--secondary button--small menu-button" aria-expanded=${menu ? "true" : "false"}
          aria-controls="tasks-nav" onClick=${() => setMenu(!menu)}>${menu ? "Close lists" : "Lists"}</button>
        <${SearchField} key=${searchKey} found=${setSearch} failed=${failed} />
      </div>
      <${Sidebar} route=${route} lists=${lists} labels=${labelsIn(live)} counts=${openCounts(live, lists, timeZone, today)} open=${menu} searching=${!!search} navigate=${navigate} failed=${failed} />
      <section class="tasks-content" aria-labelledby="view-title">
        <div class="view-head">
          <h1 id="view-title" tabindex="-1">${title}</h1>
          ${
            list &&
            !search &&
            html`<${ListActions} key=${list.id} list=${list} taskCount=${live.filter((t) => t.listId === list.id).length}
            deleted=${() => (location.hash = "#all")} failed=${failed} />`
          }
        </div>
        <div class="page-settings">
          <${TimeZoneSetting} accountId=${accountId} timeZone=${timeZone} changed=${setTimeZone} failed=${failed} />
          <${PushSetting} failed=${failed} />
        </div>
        <${TimeZoneOffer} accountId=${accountId} timeZone=${timeZone} changed=${setTimeZone} failed=${failed} />
        ${
          pageError &&
          html`<div class="alert alert--error" role="alert"><p>${pageError}</p>
          <button type="button" class="button button--secondary button--small" onClick=${() => setPageError(null)}>Dismiss</button></div>`
        }
        ${store.syncProblem && html`<p class="alert alert--warning" role="status">Could not refresh: ${store.syncProblem} Retrying shortly.</p>`}
        ${
          search
            ? html`${search.error ? html`<p class="alert alert--error" role="alert">${search.error}</p>` : html`<p class="hint" role="status">${results!.length === 1 ? "1 task found." : `${results!.length} tasks found.`}</p>`}
            ${rows(results!, "Search results")}`
            : html`${!completedView && (route.kind !== "list" || list) && html`<${AddForm} key=${hashOf(route)} defaults=${defaults} hint=${hint} lists=${lists} timeZone=${timeZone} failed=${failed} added=${added} />`}
            ${route.kind === "list" && !list ? html`<p>This list no longer exists. <a href="#all">See all tasks</a>.</p>` : null}
            ${shown.open.length === 0 && (route.kind !== "list" || list) ? html`<p class="empty">${EMPTY[route.kind === "view" ? route.id : route.kind]}</p>` : rows(shown.open, "Tasks", route.kind === "list")}
            ${shown.completed.length > 0 && html`<details class="completed"><summary>Completed (${shown.completed.length})</summary>${rows(shown.completed, "Completed tasks")}</details>`}`
        }
      </section>
      ${editing && html`<${EditDialog} key=${editing.id} task=${editing} lists=${lists} tasks=${live} timeZone=${timeZone} close=${closeEditor} remove=${remove} failed=${failed} />`}
      <${Toast} toast=${toast} dismiss=${() => setToast(null)} />
    </div>
  `;
}
