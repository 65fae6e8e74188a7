import type { Context } from "hono";
import { getAccount } from "../domain/accounts/service";
import { AppError } from "../domain/errors";
import type { ListInput, ListPatch } from "../domain/lists/schemas";
import { createListAs, deleteListAs, listListsAs, updateListAs } from "../domain/lists/service";
import { type ListTasksQuery, listTasksAs } from "../domain/tasks/list";
import type { TaskInput, TaskPatch } from "../domain/tasks/schemas";
import { type AccountCaller, judge, type Outcome } from "../domain/tasks/statements";
import { createTaskAs, deleteTaskAs, getTaskAs, updateTaskAs } from "../domain/tasks/write";
import type { AppEnv } from "../env";

/**
 * Every call the /tasks page's session routes (account-task-routes.ts) make into the task and list
 * verbs, and nothing else: REST and MCP call the same verbs, so the page follows the same rules, and
 * its writes show up in `since` syncs like theirs. The routes validate; this module only calls. It is
 * the one place to re-point when the verbs move (for example into a per-account object).
 */

type SessionContext = Context<AppEnv>;

/**
 * The session's account as a judged caller, as an OAuth connection is (mcp/credentials.ts): the session
 * was checked by requireSession, and its account's Max membership and time zone are read here, on every
 * request, so a lapsed membership applies at once. The verbs refuse without Max (403 `max_required`).
 */
async function callerOf(c: SessionContext): Promise<AccountCaller> {
  const account = await getAccount(c.var.db, c.var.actor.accountId);
  if (!account) throw new AppError("unauthorized", "The account no longer exists. Sign in again.");
  const actor = { accountId: account.id, maxActive: account.membership.active, timeZone: account.timeZone };
  return { db: c.var.db, auth: { actor } };
}

const as = async <T>(c: SessionContext, verb: (caller: AccountCaller) => Promise<Outcome<T>>): Promise<T> =>
  (await verb(await callerOf(c))).value;

/** Before a request is refused for its input: 403 without Max comes first, as on REST (credentials before input). */
export const judgeMember = async (c: SessionContext): Promise<void> => {
  await judge(await callerOf(c));
};

export const accountTasks = {
  list: (c: SessionContext, query: ListTasksQuery) => as(c, (caller) => listTasksAs(caller, query)),
  get: (c: SessionContext, id: string) => as(c, (caller) => getTaskAs(caller, id)),
  create: (c: SessionContext, input: TaskInput, idempotencyKey?: string) =>
    as(c, (caller) => createTaskAs(caller, input, { idempotencyKey })),
  update: (c: SessionContext, id: string, patch: TaskPatch, ifMatch?: string) =>
    as(c, (caller) => updateTaskAs(caller, id, patch, { ifMatch })),
  remove: (c: SessionContext, id: string, ifMatch?: string) => as(c, (caller) => deleteTaskAs(caller, id, { ifMatch })),
};

export const accountLists = {
  list: (c: SessionContext, query: { since?: string }) => as(c, (caller) => listListsAs(caller, query)),
  create: (c: SessionContext, input: ListInput) => as(c, (caller) => createListAs(caller, input)),
  update: (c: SessionContext, id: string, patch: ListPatch) => as(c, (caller) => updateListAs(caller, id, patch)),
  remove: (c: SessionContext, id: string) => as(c, (caller) => deleteListAs(caller, id)),
};
