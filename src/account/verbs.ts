import type { AccountContext } from "../domain/context";
import { createList, deleteList, listLists, updateList } from "../domain/lists/service";
import { completeTask } from "../domain/tasks/complete";
import { type ListTasksQuery, listTasks } from "../domain/tasks/list";
import { withRequestHash } from "../domain/tasks/idempotency";
import { createTask, deleteTask, getTask, updateTask } from "../domain/tasks/write";
import { deleteFeed, getFeed, rotateFeed } from "../domain/feeds/service";
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  testWebhook,
  updateWebhook,
} from "../domain/webhooks/service";

/**
 * Every verb a task request may call on its account's object, by name. Each runs inside the object,
 * in one transaction, after the request's credential was judged (credentials.ts). REST, MCP and the
 * page call them through `callAccount` (client.ts): one call per request.
 */
export const verbs = {
  /** Nothing but the judgement: for a request refused for its input, which must hear 401/403 first. */
  authenticate: () => null,
  /** The credential alone, Max not required: an MCP request that ran no task verb (calendars, tools/list). */
  identify: () => null,
  listTasks,
  getTask,
  createTask,
  updateTask,
  completeTask,
  deleteTask,
  listLists,
  createList,
  updateList,
  deleteList,
  /** list_tasks with `lists: true` (MCP): the tasks and the lists in the same call. */
  listTasksWithLists: (ctx: AccountContext, query: ListTasksQuery) => ({
    page: listTasks(ctx, query),
    lists: listLists(ctx, {}).lists,
  }),
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  testWebhook,
  listWebhookDeliveries,
  /** The account page's calendar feed (feeds/service.ts): on, rotated, off. */
  getFeed,
  rotateFeed,
  deleteFeed,
} satisfies Record<string, (ctx: AccountContext, args: never) => unknown>;

export type VerbName = keyof typeof verbs;

/**
 * The verbs any live credential may call; every other one needs an active Max membership (403). The
 * feed can be set up without Max; reading it needs Max (object.ts `feed`).
 */
const withoutMax = new Set<VerbName>(["identify", "getFeed", "rotateFeed", "deleteFeed"]);
export const needsMax = (verb: VerbName) => !withoutMax.has(verb);
export type VerbArgs<V extends VerbName> = Parameters<(typeof verbs)[V]>[1];
export type VerbValue<V extends VerbName> = ReturnType<(typeof verbs)[V]>;

/**
 * What a verb needs computed before its transaction, which cannot await: a create with an idempotency
 * key needs its input's SHA-256 (WebCrypto is asynchronous).
 */
export async function prepare<V extends VerbName>(verb: V, args: VerbArgs<V>): Promise<VerbArgs<V>> {
  if (verb !== "createTask") return args;
  return (await withRequestHash(args as VerbArgs<"createTask">)) as VerbArgs<V>;
}
