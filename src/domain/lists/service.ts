import { and, eq, gte, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { lists, nowSql, tasks } from "../../db/schema";
import { AppError } from "../errors";
import { newId } from "../ids";
import { TOMBSTONE_DAYS, TOMBSTONE_MS } from "../retention";
import { type Caller, type Outcome, type Scope, scopeOf } from "../tasks/caller";
import type { List, ListInput, ListPatch } from "./schemas";

/**
 * The list verbs, for REST and MCP alike. Each is one D1 round trip with the key's lookup inside
 * (caller.ts), scoped by the caller's account, like the task verbs. What keeps lists and tasks in
 * step lives in migration 0008's triggers: a task written with a listId that names no list creates
 * it, and a list's updated_at moves when its counts change.
 */

/** Names are unique per account ignoring case: NFC, then upper- and lower-cased, so "ß" matches "SS". */
export const nameKeyOf = (name: string) => name.normalize("NFC").toUpperCase().toLowerCase();

const notFound = () => new AppError("list_not_found", "No list with this id in your account.");

/** One of the account's live lists. `account` is the actor's id or a key's account subquery (caller.ts). */
const ownLiveList = (account: string | SQL, id: string) =>
  and(eq(lists.accountId, account), eq(lists.id, id), isNull(lists.deletedAt));

/**
 * Live tasks of the list in the current row of `lists`; covered by tasks_account_list_idx. The outer
 * columns are written out: Drizzle leaves them unqualified in a RETURNING clause, where they would
 * name the subquery's own `tasks` columns.
 */
const countOf = (open: boolean) =>
  sql<number>`(SELECT count(*) FROM ${tasks} t WHERE t.account_id = "lists"."account_id" AND t.list_id = "lists"."id"
               AND t.deleted_at IS NULL${open ? sql` AND t.completed = 0` : sql``})`;

/** A list as the API shows it, plus for an API key its lookup as `verdict` (Scope.verdict). */
const listColumns = (verdict: SQL | undefined) => ({
  id: lists.id,
  name: lists.name,
  openCount: countOf(true).as("open_count"),
  taskCount: countOf(false).as("task_count"),
  createdAt: lists.createdAt,
  updatedAt: lists.updatedAt,
  ...(verdict ? { verdict: sql<string | null>`${verdict}`.as("verdict") } : {}),
});

const toList = ({ id, name, openCount, taskCount, createdAt, updatedAt }: List): List => ({
  id,
  name,
  openCount,
  taskCount,
  createdAt,
  updatedAt,
});

/** The account's live lists with this id or this name: why a create or a rename changed nothing. */
const clashes = ({ db, account }: Scope, id: string, nameKey: string) =>
  db
    .select({ id: lists.id, nameKey: lists.nameKey })
    .from(lists)
    .where(
      and(eq(lists.accountId, account), isNull(lists.deletedAt), or(eq(lists.id, id), eq(lists.nameKey, nameKey))),
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

/**
 * The account's live lists by name, with their counts; with `since`, only those changed at or after it
 * (renamed, or their counts moved) and the deletions since then. The lists and the clock come as one
 * aggregate row, which carries the key's verdict: one statement, or two with `since`.
 */
export async function listListsAs(caller: Caller, query: { since?: string }): Promise<Outcome<ListPage>> {
  const scope = scopeOf(caller);
  const { db, account, verdict } = scope;
  const since = query.since ? new Date(query.since).toISOString() : undefined;
  const listJson = sql`json_object('id', ${lists.id}, 'name', ${lists.name}, 'openCount', ${countOf(true)},
    'taskCount', ${countOf(false)}, 'createdAt', ${lists.createdAt}, 'updatedAt', ${lists.updatedAt})`;
  const page = db
    .select({
      ...(verdict ? { verdict: sql<string | null>`${verdict}`.as("verdict") } : {}),
      json: sql<string>`'[' || coalesce(group_concat(${listJson}, ',' ORDER BY ${lists.nameKey}, ${lists.id}), '') || ']'`.as(
        "json",
      ),
      now: sql<string>`${nowSql}`.as("now"),
    })
    .from(lists)
    .where(and(eq(lists.accountId, account), isNull(lists.deletedAt), since ? gte(lists.updatedAt, since) : undefined));
  const tombstones = since
    ? db
        .select({ id: lists.id, deletedAt: lists.deletedAt })
        .from(lists)
        .where(and(eq(lists.accountId, account), isNotNull(lists.deletedAt), gte(lists.deletedAt, since)))
        .orderBy(lists.deletedAt, lists.id)
    : undefined;
  const { auth, results } = await scope.run(tombstones ? [page, tombstones] : [page], { verdictIn: "row" });
  // Judged after the key, as for tasks: a refused caller hears 401/403, not 410.
  if (since && Date.parse(since) < Date.now() - TOMBSTONE_MS) {
    throw new AppError(
      "sync_expired",
      `\`since\` is older than ${TOMBSTONE_DAYS} days, so deletions before it are forgotten. List again without \`since\`.`,
    );
  }
  const [[row], deleted] = results as [{ json: string; now: string }[], { id: string; deletedAt: string }[]?];
  const value: ListPage = { lists: JSON.parse(row!.json) as List[], serverTime: row!.now };
  if (deleted) value.deleted = deleted;
  return { value, auth };
}

/**
 * Creates a list, with the id given or a new one. One insert, guarded so that it writes nothing when a
 * live list of the account has this id or this name; a deleted list's id is taken over. When nothing
 * was written, the same batch tells a refused key (401/403) from a clash (409).
 */
export async function createListAs(caller: Caller, input: ListInput): Promise<Outcome<List>> {
  const scope = scopeOf(caller);
  const { db, account, verdict } = scope;
  const id = input.id ?? newId();
  const nameKey = nameKeyOf(input.name);
  const insert = db
    .insert(lists)
    .select(
      sql`SELECT owner.id, ${id}, ${input.name}, ${nameKey}, ${nowSql}, ${nowSql}, NULL
          FROM (SELECT ${account} AS id) owner
          WHERE owner.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${lists} l WHERE l.account_id = owner.id
            AND l.deleted_at IS NULL AND (l.id = ${id} OR l.name_key = ${nameKey}))`,
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
    .returning(listColumns(verdict));
  const { auth, results } = await scope.run([insert, clashes(scope, id, nameKey)], { verdictIn: "rows" });
  const [[created], rows = []] = results as [List[], { id: string; nameKey: string }[]?];
  if (created) return { value: toList(created), auth };
  throw clashError(rows, id, nameKey);
}

/** Renames a list (`{}` returns it unchanged). Another live list with the name (ignoring case) is 409. */
export async function updateListAs(caller: Caller, id: string, patch: ListPatch): Promise<Outcome<List>> {
  const scope = scopeOf(caller);
  const { db, account, verdict } = scope;
  if (patch.name === undefined) {
    const read = db.select(listColumns(verdict)).from(lists).where(ownLiveList(account, id));
    const { auth, results } = await scope.run([read], { verdictIn: "rows" });
    const [row] = results[0] as List[];
    if (!row) throw notFound();
    return { value: toList(row), auth };
  }
  const nameKey = nameKeyOf(patch.name);
  const update = db
    .update(lists)
    .set({ name: patch.name, nameKey, updatedAt: nowSql })
    .where(
      and(
        ownLiveList(account, id),
        sql`NOT EXISTS (SELECT 1 FROM ${lists} o WHERE o.account_id = "lists"."account_id" AND o.deleted_at IS NULL
                        AND o.name_key = ${nameKey} AND o.id <> "lists"."id")`,
      ),
    )
    .returning(listColumns(verdict));
  const { auth, results } = await scope.run([update, clashes(scope, id, nameKey)], { verdictIn: "rows" });
  const [[updated], rows = []] = results as [List[], { id: string; nameKey: string }[]?];
  if (updated) return { value: toList(updated), auth };
  if (!rows.some((row) => row.id === id)) throw notFound();
  throw clashError(rows, id, nameKey);
}

/** As in the task verbs: every change strictly increases a task's updatedAt. */
const bumpedUpdatedAt = sql`max(${nowSql}, strftime('%Y-%m-%dT%H:%M:%fZ', ${tasks.updatedAt}, '+0.001 seconds'))`;

/**
 * Deletes a list and its tasks in one batch (one transaction), both as tombstones: `since` syncs of
 * lists and of tasks see the deletions. Another account's list, or none, is 404.
 */
export async function deleteListAs(caller: Caller, id: string): Promise<Outcome<void>> {
  const scope = scopeOf(caller);
  const { db, account } = scope;
  const { auth, results } = await scope.run([
    db
      .update(lists)
      .set({ deletedAt: nowSql, updatedAt: nowSql })
      .where(ownLiveList(account, id))
      .returning({ id: lists.id }),
    // Only the list's own tasks can name it: the account scopes this, and the list's id is per account.
    db
      .update(tasks)
      .set({ deletedAt: nowSql, updatedAt: bumpedUpdatedAt })
      .where(and(eq(tasks.accountId, account), eq(tasks.listId, id), isNull(tasks.deletedAt))),
  ]);
  if ((results[0] as unknown[]).length === 0) throw notFound();
  return { value: undefined, auth };
}
