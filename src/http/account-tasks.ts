import type { Context } from "hono";
import type { AccountCaller } from "../account/caller";
import { runVerb } from "../account/caller";
import type { VerbArgs, VerbName, VerbValue } from "../account/verbs";
import type { ListInput, ListPatch } from "../domain/lists/schemas";
import type { ListTasksQuery } from "../domain/tasks/list";
import type { TaskInput, TaskPatch } from "../domain/tasks/schemas";
import type { AppEnv } from "../env";

/**
 * Every call the /tasks page's session routes (account-task-routes.ts) make into the task and list
 * verbs, and nothing else: REST and MCP call the same verbs, so the page follows the same rules, and
 * its writes show up in `since` syncs like theirs. The routes validate; this module only calls, one
 * call to the account's object per request.
 */

type SessionContext = Context<AppEnv>;

/**
 * The session's account as a caller: requireSession checked the session in D1; the account's object
 * checks its Max membership on every request (403 `max_required`), so a lapse applies at once.
 */
const callerOf = (c: SessionContext): AccountCaller => ({
  env: c.env,
  accountId: c.var.actor.accountId,
  credential: { kind: "session" },
});

const run = <V extends VerbName>(c: SessionContext, verb: V, args: VerbArgs<V>): Promise<VerbValue<V>> =>
  runVerb(callerOf(c), verb, args);

/** Before a request is refused for its input: 403 without Max comes first, as on REST (credentials before input). */
export const authorizeMember = async (c: SessionContext): Promise<void> => {
  await run(c, "authenticate", undefined as never);
};

export const accountTasks = {
  list: (c: SessionContext, query: ListTasksQuery) => run(c, "listTasks", query),
  get: (c: SessionContext, id: string) => run(c, "getTask", { id }),
  create: (c: SessionContext, input: TaskInput, idempotencyKey?: string) =>
    run(c, "createTask", { input, idempotencyKey }),
  update: (c: SessionContext, id: string, patch: TaskPatch, ifMatch?: string) =>
    run(c, "updateTask", { id, patch, ifMatch }),
  remove: (c: SessionContext, id: string, ifMatch?: string) => run(c, "deleteTask", { id, ifMatch }),
};

export const accountLists = {
  list: (c: SessionContext, query: { since?: string }) => run(c, "listLists", query),
  create: (c: SessionContext, input: ListInput) => run(c, "createList", input),
  update: (c: SessionContext, id: string, patch: ListPatch) => run(c, "updateList", { id, patch }),
  remove: (c: SessionContext, id: string) => run(c, "deleteList", { id }),
};
