import { type Account, api, call } from "../api";
import { session } from "../session";

/**
 * The tasks page's calls: its own session routes (/account/tasks, /account/lists), which take REST's
 * bodies and answer REST's shapes. The types are what the page reads of those answers.
 */

export interface Task {
  id: string;
  title: string;
  completed: boolean;
  updatedAt: string;
  important: boolean;
  listId?: string;
  due?: string;
  reminder?: string;
  repeat?: string;
  notes?: string;
  completedAt?: string;
  /** Issue 34 (contract34): the parent's id on a subtask; 1 (none) … 4 (urgent); labels; the order key. */
  parentId?: string;
  priority?: 1 | 2 | 3 | 4;
  labels?: string[];
  position?: string;
  subtaskCounts?: { open: number; total: number };
}

export interface TaskList {
  id: string;
  name: string;
  openCount: number;
  taskCount: number;
}

/** A new task (TaskInput) or a change to one (TaskPatch): "" or null clears, as on REST. */
export type TaskInput = Partial<
  Omit<Task, "id" | "updatedAt" | "completedAt" | "reminder" | "position" | "subtaskCounts">
> & {
  reminder?: string | null;
};

/** Where a task goes: before or after a sibling, under a parent ("" = top level), into a list. */
export interface Move {
  before?: string;
  after?: string;
  parentId?: string;
  listId?: string;
}

/** A device that gets reminders as notifications (GET /account/push-subscriptions). */
export interface PushDevice {
  id: string;
  endpoint: string;
  device: string;
  createdAt: string;
}

interface Page<T> {
  data: T[];
  meta: { serverTime: string; deleted?: { id: string; deletedAt: string }[] };
}

const token = () => session.get();
const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;
const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return search.size ? `?${search}` : "";
};

export const tasksApi = {
  account: () => api.getAccount(token()!),
  setTimeZone: (timeZone: string) => call<Account>("/account", { method: "PATCH", body: { timeZone }, token: token() }),
  contact: () => api.root().then((root) => root.contact),
  tasks: (params: { since?: string; q?: string } = {}) =>
    call<Page<Task>>(`/account/tasks${query(params)}`, { token: token() }),
  task: (id: string) => call<Task>(path("/account/tasks", id), { token: token() }),
  createTask: (body: TaskInput, idempotencyKey: string) =>
    call<Task>("/account/tasks", {
      method: "POST",
      body,
      token: token(),
      headers: { "Idempotency-Key": idempotencyKey },
    }),
  updateTask: (id: string, body: TaskInput, ifMatch?: string) =>
    call<{ task: Task; next?: Task }>(path("/account/tasks", id), {
      method: "PATCH",
      body,
      token: token(),
      headers: ifMatch ? { "If-Match": ifMatch } : {},
    }),
  moveTask: (id: string, body: Move) =>
    call<Task>(`${path("/account/tasks", id)}/move`, { method: "POST", body, token: token() }),
  deleteTask: (id: string, keepalive = false) =>
    call<void>(path("/account/tasks", id), { method: "DELETE", token: token(), keepalive }),
  lists: (params: { since?: string } = {}) =>
    call<Page<TaskList>>(`/account/lists${query(params)}`, { token: token() }),
  createList: (name: string) => call<TaskList>("/account/lists", { method: "POST", body: { name }, token: token() }),
  renameList: (id: string, name: string) =>
    call<TaskList>(path("/account/lists", id), { method: "PATCH", body: { name }, token: token() }),
  deleteList: (id: string) => call<void>(path("/account/lists", id), { method: "DELETE", token: token() }),
  /** Public: the deployment's VAPID key; null when it has none (push off). */
  pushPublicKey: () => call<{ publicKey: string | null }>("/api/v1/push/public-key").then((r) => r.publicKey),
  pushDevices: () =>
    call<{ data: PushDevice[] }>("/account/push-subscriptions", { token: token() }).then((r) => r.data),
  addPushDevice: (subscription: PushSubscriptionJSON) =>
    call<PushDevice>("/account/push-subscriptions", { method: "POST", body: subscription, token: token() }),
  removePushDevice: (id: string) =>
    call<void>(path("/account/push-subscriptions", id), { method: "DELETE", token: token() }),
};
