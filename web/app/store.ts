import { callTool } from "./bridge";

export interface Task {
  id: string;
  title: string;
  completed: boolean;
  due?: string;
  listId?: string;
}
export interface TaskList {
  id: string;
  name: string;
}
interface Listing {
  tasks: Task[];
  lists?: TaskList[];
}
interface State {
  tasks: Task[];
  lists: TaskList[];
  /** "" for every list. */
  listId: string;
  showDone: boolean;
  loading: boolean;
  error?: string;
}

/** A listing result from list_tasks, whether the model's call (the host's tool result) or ours. */
export const isListing = (value: unknown): value is Listing =>
  typeof value === "object" && value !== null && Array.isArray((value as Listing).tasks);

/**
 * The view's state and its actions, each one tool call through the host; after a write the listing is
 * read again, so what the view shows is what the server holds.
 */
export function createStore(changed: () => void) {
  const state: State = { tasks: [], lists: [], listId: "", showDone: false, loading: true };
  const set = (patch: Partial<State>) => {
    Object.assign(state, patch);
    changed();
  };
  const attempt = async (run: () => Promise<unknown>): Promise<boolean> => {
    try {
      await run();
      set({ error: undefined });
      return true;
    } catch (e) {
      set({ error: e instanceof Error ? e.message : String(e), loading: false });
      return false;
    }
  };
  const show = (listing: Listing) =>
    set({ tasks: listing.tasks, ...(listing.lists ? { lists: listing.lists } : {}), loading: false });

  const load = () =>
    attempt(async () => {
      set({ loading: true });
      const args: Record<string, unknown> = { lists: true, limit: 200 };
      if (!state.showDone) args.completed = false;
      if (state.listId) args.listId = state.listId;
      show(await callTool<Listing>("list_tasks", args));
    });
  const write = (name: string, args: Record<string, unknown>) =>
    attempt(async () => {
      await callTool(name, args);
      await load();
    });

  return {
    state,
    load,
    show,
    filter: (patch: Partial<Pick<State, "listId" | "showDone">>) => {
      set(patch);
      return load();
    },
    toggle: (task: Task) =>
      task.completed
        ? write("update_task", { id: task.id, completed: false })
        : write("complete_task", { id: task.id }),
    add: ({ title, due }: { title: string; due: string }) =>
      write("create_task", { title, ...(due ? { due } : {}), ...(state.listId ? { listId: state.listId } : {}) }),
    edit: (task: Task, { title, due }: { title: string; due: string }) =>
      write("update_task", { id: task.id, title, due }),
  };
}
export type Store = ReturnType<typeof createStore>;
