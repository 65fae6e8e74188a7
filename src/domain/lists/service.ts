import { and, eq, gte, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { selectRow } from "../../db/row-select";
import { lists, nowSql, tasks } from "../../db/schema";
import { AppError } from "../errors";
import { newId } from "../ids";
import { expiredSince } from "../retention";
import { setClause } from "../tasks/row";
import {
  type Caller,
  type CallerScope,
  type Outcome,
  runBehindLookup,
  runWithVerdictRow,
  runWithVerdictRows,
  taskStatement,
} from "../tasks/statements";
import type { List, ListInput, ListPatch } from "./schemas";

/**
 * The list verbs, for REST and MCP alike. Each is one D1 round trip with the key's lookup inside
 * (tasks/statements.ts), scoped by the caller's account, like the task verbs. What keeps lists and tasks in
 * step lives in migration 0008's triggers: a task written with a listId that names no list creates
 * it, and a list's updated_at moves when its counts change.
 */

/** Names are unique per account ignoring case: NFC, then upper- and lower-cased, so "ß" matches "SS". */
export const nameKeyOf = (name: string) => name.normalize("NFC").toUpperCase().toLowerCase();

const notFound = () => new AppError("list_not_found", "No list with this id in your account.");

/** One of the account's live lists. `account` is the caller's account as SQL (tasks/statements.ts). */
const ownLiveList = (account: SQL, id: unknown) =>
  and(eq(lists.accountId, account), eq(lists.id, id as string), isNull(lists.deletedAt));

/**
 * Live tasks of the list in the current row of `lists`; covered by tasks_account_list_idx. The outer
 * columns are written out: Drizzle leaves them unqualified in a RETURNING clause, where they would
 * name the subquery's own `tasks` columns.
 */
const countOf = (open: boolean) =>
  sql<number>`(SELECT count(*) FROM ${tasks} t WHERE t.account_id = "lists"."account_id" AND t.list_id = "lists"."id"
               AND t.deleted_at IS NULL${open ? sql` AND t.completed = 0` : sql``})`;

/** A list as the API shows it, and the caller's verdict (CallerScope.verdict) in each row. */
const listColumns = (verdict: SQL.Aliased<string | null>) => ({
  id: lists.id,
  name: lists.name,
  openCount: countOf(true).as("open_count"),
  taskCount: countOf(false).as("task_count"),
  createdAt: lists.createdAt,
  updatedAt: lists.updatedAt,
  verdict,
});

const toList = ({ id, name, openCount, taskCount, createdAt, updatedAt }: List): List => ({
  id,
  name,
  openCount,
  taskCount,
  createdAt,
  updatedAt,
});

type Named = { id: string; name: string; nameKey: string };

/** The account's live lists with this id or this name: why a create or a rename changed nothing. */
const clashes = taskStatement(({ db, account, values: v }: CallerScope<Named>) =>
  db
    .select({ id: lists.id, nameKey: lists.nameKey })
    .from(lists)
    .where(
      and(eq(lists.accountId, account), isNull(lists.deletedAt), or(eq(lists.id, v.id), eq(lists.nameKey, v.nameKey))),
    ),
);

function clashError(rows: { id: string; nameKey: string }[], id: string, nameKey: string): AppError {
  const named = rows.find((row) => row.nameKey === nameKey && row.id !== id);
  return named
    ? new AppError("list_exists", `The list "${named.id}" already has this name (names are unique ignoring case).`)
    : new AppError("list_exists", "A list with this id already exists.");
}

export interface ListPage {
  lists: List[];
  serverTime: string;
  /** With `since`: lists deleted at or after it. */
  deleted?: { id: string; deletedAt: string }[];
}

type SinceValues = { since?: string };
const listJson = sql`json_object('id', ${lists.id}, 'name', ${lists.name}, 'openCount', ${countOf(true)},
    'taskCount', ${countOf(false)}, 'createdAt', ${lists.createdAt}, 'updatedAt', ${lists.updatedAt})`;

/** The lists and the clock as one aggregate row, which carries the verdict. */
const listPage = taskStatement(({ db, account, verdict, values: v }: CallerScope<SinceValues>, since: boolean) =>
  db
    .select({
      verdict,
      json: sql<string>`'[' || coalesce(group_concat(${listJson}, ',' ORDER BY ${lists.nameKey}, ${lists.id}), '') || ']'`.as(
        "json",
      ),
      now: sql<string>`${nowSql}`.as("now"),
    })
    .from(lists)
    .where(
      and(eq(lists.accountId, account), isNull(lists.deletedAt), since ? gte(lists.updatedAt, v.since) : undefined),
    ),
);

const listTombstones = taskStatement(({ db, account, values: v }: CallerScope<SinceValues>) =>
  db
    .select({ id: lists.id, deletedAt: lists.deletedAt })
    .from(lists)
    .where(and(eq(lists.accountId, account), isNotNull(lists.deletedAt), gte(lists.deletedAt, v.since)))
    .orderBy(lists.deletedAt, lists.id),
);

/**
 * The account's live lists by name, with their counts; with `since`, only those changed at or after it
 * (renamed, or their counts moved) and the deletions since then. One statement, or two with `since`.
 */
export async function listListsAs(caller: Caller, query: { since?: string }): Promise<Outcome<ListPage>> {
  const since = query.since ? new Date(query.since).toISOString() : undefined;
  const values = { since };
  const { auth, results } = await runWithVerdictRow(caller, [
    listPage(caller, since !== undefined, values),
    ...(since ? [listTombstones(caller, null, values)] : []),
  ]);
  // Judged after the key, as for tasks: a refused caller hears 401/403, not 410.
  const expired = expiredSince(since, "List again without `since`.");
  if (expired) throw expired;
  const [[row], deleted] = results as [{ json: string; now: string }[], { id: string; deletedAt: string }[]?];
  const value: ListPage = { lists: JSON.parse(row!.json) as List[], serverTime: row!.now };
  if (deleted) value.deleted = deleted;
  return { value, auth };
}

/**
 * A new list, with the id given or a new one. Guarded so that it writes nothing when a live list of
 * the account has this id or this name; a deleted list's id is taken over.
 */
const insertList = taskStatement(({ db, account, verdict, values: v }: CallerScope<Named>) =>
  db
    .insert(lists)
    .select(
      sql`SELECT ${selectRow(lists, { accountId: sql`owner.id`, id: v.id, name: v.name, nameKey: v.nameKey })}
          FROM (SELECT ${account} AS id) owner
          WHERE owner.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${lists} l WHERE l.account_id = owner.id
            AND l.deleted_at IS NULL AND (l.id = ${v.id} OR l.name_key = ${v.nameKey}))`,
    )
    .onConflictDoUpdate({
      target: [lists.accountId, lists.id],
      set: {
        name: sql`excluded.name`,
        nameKey: sql`excluded.name_key`,
        createdAt: sql`excluded.created_at`,
        updatedAt: sql`excluded.updated_at`,
        deletedAt: null,
      },
    })
    .returning(listColumns(verdict)),
);

/** Creates a list. When nothing was written, the same batch tells a refused key (401/403) from a clash (409). */
export async function createListAs(caller: Caller, input: ListInput): Promise<Outcome<List>> {
  const named: Named = { id: input.id ?? newId(), name: input.name, nameKey: nameKeyOf(input.name) };
  const { auth, results } = await runWithVerdictRows(caller, [
    insertList(caller, null, named),
    clashes(caller, null, named),
  ]);
  const [[created], rows = []] = results as [List[], { id: string; nameKey: string }[]?];
  if (created) return { value: toList(created), auth };
  throw clashError(rows, named.id, named.nameKey);
}

const readList = taskStatement(({ db, account, verdict, values: v }: CallerScope<{ id: string }>) =>
  db.select(listColumns(verdict)).from(lists).where(ownLiveList(account, v.id)),
);

/** A rename, unless another live list of the account has the name (ignoring case). */
const renameList = taskStatement(({ db, account, verdict, values: v }: CallerScope<Named>) =>
  db
    .update(lists)
    .set({ name: sql`${v.name}`, nameKey: sql`${v.nameKey}`, updatedAt: nowSql })
    .where(
      and(
        ownLiveList(account, v.id),
        sql`NOT EXISTS (SELECT 1 FROM ${lists} o WHERE o.account_id = "lists"."account_id" AND o.deleted_at IS NULL
                        AND o.name_key = ${v.nameKey} AND o.id <> "lists"."id")`,
      ),
    )
    .returning(listColumns(verdict)),
);

/** Renames a list (`{}` returns it unchanged). Another live list with the name (ignoring case) is 409. */
export async function updateListAs(caller: Caller, id: string, patch: ListPatch): Promise<Outcome<List>> {
  if (patch.name === undefined) {
    const { auth, results } = await runWithVerdictRows(caller, [readList(caller, null, { id })]);
    const [row] = results[0] as List[];
    if (!row) throw notFound();
    return { value: toList(row), auth };
  }
  const named: Named = { id, name: patch.name, nameKey: nameKeyOf(patch.name) };
  const { auth, results } = await runWithVerdictRows(caller, [
    renameList(caller, null, named),
    clashes(caller, null, named),
  ]);
  const [[updated], rows = []] = results as [List[], { id: string; nameKey: string }[]?];
  if (updated) return { value: toList(updated), auth };
  if (!rows.some((row) => row.id === id)) throw notFound();
  throw clashError(rows, id, named.nameKey);
}

const deleteList = taskStatement(({ db, account, values: v }: CallerScope<{ id: string }>) =>
  db
    .update(lists)
    .set({ deletedAt: nowSql, updatedAt: nowSql })
    .where(ownLiveList(account, v.id))
    .returning({ id: lists.id }),
);

/** Only the list's own tasks can name it: the account scopes this, and the list's id is per account. */
const deleteListTasks = taskStatement(({ db, account, values: v }: CallerScope<{ id: string }>) =>
  db
    .update(tasks)
    .set(setClause({ deletedAt: nowSql }))
    .where(and(eq(tasks.accountId, account), eq(tasks.listId, v.id), isNull(tasks.deletedAt))),
);

/**
 * Deletes a list and its tasks in one batch (one transaction), both as tombstones: `since` syncs of
 * lists and of tasks see the deletions. Another account's list, or none, is 404.
 */
export async function deleteListAs(caller: Caller, id: string): Promise<Outcome<void>> {
  const { auth, results } = await runBehindLookup(caller, [
    deleteList(caller, null, { id }),
    deleteListTasks(caller, null, { id }),
  ]);
  if ((results[0] as unknown[]).length === 0) throw notFound();
  return { value: undefined, auth };
}
