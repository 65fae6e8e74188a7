import { ApiError } from "../api";
import { session } from "../session";
import { type Move, type Task, type TaskInput, type TaskList, tasksApi } from "./api";
import { connectLive, liveOpen, type Pushed } from "./live";

/**
 * The page's copy of the account's tasks and lists: one full read on load, then each change as the
 * account's live stream pushes it (live.ts). While the stream is not open, `since` syncs: only what
 * changed (and what was deleted) every POLL_MS while the page is visible, and at once when the tab comes
 * back. The page's own writes land here as soon as they are answered.
 */

const POLL_MS = 12_000;
/** Lists change rarely (a list an agent made also shows up through a task's listId): every few polls. */
const LIST_POLL_EVERY = 5;

export const store = {
  tasks: new Map<string, Task>(),
  lists: new Map<string, TaskList>(),
  /** Deleted on the page but not yet sent: the undo window (see removeTask). */
  hidden: new Set<string>(),
  /** Why the last sync failed, for a quiet status line; null when it worked. */
  syncProblem: null as string | null,
  /** The reason when the session has ended (a 401): the page then leads to sign-in. */
  ended: null as string | null,
};

let tasksSince: string | undefined;
let listsSince: string | undefined;
const listeners = new Set<() => void>();
export const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const changed = () => {
  for (const listener of listeners) listener();
};

/** A task as answered by a write or a sync; an older copy never replaces a newer one. */
export function keep(task: Task): void {
  const known = store.tasks.get(task.id);
  if (!known || known.updatedAt <= task.updatedAt) store.tasks.set(task.id, task);
}

const keepList = (list: TaskList) => store.lists.set(list.id, list);

async function loadAll(): Promise<void> {
  const [tasks, lists] = await Promise.all([tasksApi.tasks(), tasksApi.lists()]);
  store.tasks = new Map(tasks.data.map((t) => [t.id, t]));
  store.lists = new Map(lists.data.map((l) => [l.id, l]));
  tasksSince = tasks.meta.serverTime;
  listsSince = lists.meta.serverTime;
}

async function syncLists(): Promise<void> {
  const lists = await tasksApi.lists({ since: listsSince });
  for (const list of lists.data) keepList(list);
  for (const { id } of lists.meta.deleted ?? []) store.lists.delete(id);
  listsSince = lists.meta.serverTime;
}

let polls = 0;
let running: Promise<void> | null = null;

async function syncOnce(withLists: boolean): Promise<void> {
  try {
    const tasks = await tasksApi.tasks({ since: tasksSince });
    for (const task of tasks.data) keep(task);
    for (const { id } of tasks.meta.deleted ?? []) store.tasks.delete(id);
    tasksSince = tasks.meta.serverTime;
    const unknownList = tasks.data.some((t) => t.listId && !store.lists.has(t.listId));
    if (withLists || unknownList) await syncLists();
    store.syncProblem = null;
  } catch (error) {
    if (error instanceof ApiError && error.code === "sync_expired") await loadAll();
    else throw error;
  }
}

/** Brings the copy up to date; failures show as `syncProblem` (and a 401 as `ended`), never as lost data. */
export function sync(withLists = false): Promise<void> {
  running ??= syncOnce(withLists)
    .catch((error) => {
      if (error instanceof ApiError && error.status === 401) store.ended = error.detail;
      store.syncProblem = error instanceof ApiError ? error.detail : "Could not refresh the tasks.";
    })
    .finally(() => {
      running = null;
      changed();
    });
  return running;
}

let lastSync = 0;
const syncSoon = (withLists: boolean) => {
  // Signed out (here or, after a 401, elsewhere): nothing to sync until the person signs in again.
  if (!session.get() || document.visibilityState !== "visible" || Date.now() - lastSync < 1000) return;
  lastSync = Date.now();
  void sync(withLists);
};

/** A message of the live stream, applied as a `since` sync's answer would be; its serverTime is the next `since`. */
function applyPushed(message: Pushed): void {
  if (message.type === "error") return;
  if (message.type === "sync") {
    for (const task of message.data.tasks) keep(task);
    for (const { id } of message.data.deleted) store.tasks.delete(id);
    for (const list of message.data.lists) keepList(list);
    for (const { id } of message.data.deletedLists) store.lists.delete(id);
  } else if (message.type === "task.deleted") store.tasks.delete(message.data.id);
  else if (message.type === "list.deleted") store.lists.delete(message.data.id);
  else if (message.type.startsWith("task.") && "title" in message.data) {
    keep(message.data);
    if (message.data.next) keep(message.data.next);
  } else if (message.type.startsWith("list.") && "name" in message.data) keepList(message.data as TaskList);
  else return;
  tasksSince = message.serverTime;
  listsSince = message.serverTime;
  changed();
}

/** Loads everything, then follows the live stream; polls only while it is not open, and syncs when the tab comes back. */
export async function start(): Promise<void> {
  await loadAll();
  changed();
  connectLive({
    token: () => session.get(),
    since: () => tasksSince,
    message: applyPushed,
    // Revoked, lapsed or expired: a REST sync shows why (401 ends the page, 410 reloads everything).
    ended: () => void sync(true),
  });
  setInterval(() => liveOpen() || syncSoon(++polls % LIST_POLL_EVERY === 0), POLL_MS);
  document.addEventListener("visibilitychange", () => syncSoon(true));
  window.addEventListener("focus", () => syncSoon(true));
  window.addEventListener("pagehide", flushDeletes);
}

export async function createTask(input: TaskInput, idempotencyKey: string): Promise<Task> {
  const task = await tasksApi.createTask(input, idempotencyKey);
  keep(task);
  if (task.listId && !store.lists.has(task.listId)) await syncLists().catch(() => undefined);
  changed();
  return task;
}

/** Applies a change; a completed repeating task's next occurrence comes back as `next`. */
export async function updateTask(id: string, patch: TaskInput, ifMatch?: string): Promise<Task | undefined> {
  const { task, next } = await tasksApi.updateTask(id, patch, ifMatch);
  keep(task);
  if (next) keep(next);
  if (task.listId && !store.lists.has(task.listId)) await syncLists().catch(() => undefined);
  changed();
  return next;
}

/** Places a task (move.ts); the answer is the task with its new position and parent. */
export async function moveTask(id: string, move: Move): Promise<Task> {
  const task = await tasksApi.moveTask(id, move);
  keep(task);
  changed();
  return task;
}

export async function reloadTask(id: string): Promise<Task> {
  const task = await tasksApi.task(id);
  keep(task);
  changed();
  return task;
}

export const UNDO_MS = 8000;
const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; send: (keepalive: boolean) => void }>();

/** Undo brings the task back; `hold` stops the clock while the Undo message is focused or hovered. */
export interface Removal {
  undo: () => void;
  hold: (paused: boolean) => void;
}

/**
 * Hides the task at once and deletes it after the undo window; `undo` brings it back before then. The
 * window stops while the person holds the message (`hold`), so Undo still works after reading it. A page
 * closed within the window still sends the delete (keepalive): nothing is lost silently, and nothing
 * deleted comes back.
 */
export function removeTask(id: string, onError: (error: unknown) => void): Removal {
  store.hidden.add(id);
  changed();
  const send = (keepalive: boolean) => {
    clearTimeout(pending.get(id)?.timer);
    pending.delete(id);
    tasksApi
      .deleteTask(id, keepalive)
      .then(() => store.tasks.delete(id))
      .catch((error) => (error instanceof ApiError && error.status === 404 ? store.tasks.delete(id) : onError(error)))
      .finally(() => {
        store.hidden.delete(id);
        changed();
      });
  };
  let left = UNDO_MS;
  let started = Date.now();
  const arm = () => {
    started = Date.now();
    pending.set(id, { timer: setTimeout(() => send(false), left), send });
  };
  arm();
  return {
    undo: () => {
      if (!pending.has(id)) return;
      clearTimeout(pending.get(id)!.timer);
      pending.delete(id);
      store.hidden.delete(id);
      changed();
    },
    hold: (paused) => {
      const entry = pending.get(id);
      if (!entry) return;
      clearTimeout(entry.timer);
      if (paused) left = Math.max(0, left - (Date.now() - started));
      else arm();
    },
  };
}

function flushDeletes(): void {
  for (const { send } of [...pending.values()]) send(true);
}

export async function createList(name: string): Promise<TaskList> {
  const list = await tasksApi.createList(name);
  keepList(list);
  changed();
  return list;
}

export async function renameList(id: string, name: string): Promise<void> {
  keepList(await tasksApi.renameList(id, name));
  changed();
}

/** Deletes the list and, as the API does, its tasks. */
export async function deleteList(id: string): Promise<void> {
  await tasksApi.deleteList(id);
  store.lists.delete(id);
  for (const task of [...store.tasks.values()]) if (task.listId === id) store.tasks.delete(task.id);
  changed();
}

export const notify = changed;
