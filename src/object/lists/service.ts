import { and, asc, count, eq, gte, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { lists, type ListRow, tasks } from "../schema";
import type { AccountContext, AccountDb } from "../context";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { expiredSince } from "../retention";
import { setClause } from "../tasks/row";
import { nameKeyOf } from "../../domain/lists/names";
import type { List, ListInput, ListPatch } from "../../domain/lists/schemas";

/**
 * The list verbs, for REST, MCP and the page alike. What keeps lists and tasks in step lives in the
 * objects' migration 0001 triggers: a task written with a listId that names no list creates it, and a
 * list's updated_at moves when its counts change.
 */

const notFound = () => new AppError("list_not_found", "No list with this id in your account.");

const whereLive = (id: string) => and(eq(lists.id, id), isNull(lists.deletedAt));

/** A list as the API shows it: its row and its counts of live tasks. */
export function toList(db: AccountDb, row: ListRow): List {
  const counts = db
    .select({ taskCount: count(), openCount: sql<number>`count(*) FILTER (WHERE ${tasks.completed} = 0)` })
    .from(tasks)
    .where(and(eq(tasks.listId, row.id), isNull(tasks.deletedAt)))
    .get()!;
  const { id, name, createdAt, updatedAt } = row;
  return { id, name, openCount: counts.openCount, taskCount: counts.taskCount, createdAt, updatedAt };
}

/** 409 when another live list has this name (ignoring case), or this id. */
function refuseClash(db: AccountDb, id: string, nameKey: string, self?: string) {
  const named = db
    .select({ name: lists.name })
    .from(lists)
    .where(and(eq(lists.nameKey, nameKey), isNull(lists.deletedAt), self ? ne(lists.id, self) : undefined))
    .get();
  if (named) {
    // Its name as stored, which may differ in case from the one asked for.
    throw new AppError(
      "list_exists",
      `The list "${named.name}" already has this name (names are unique ignoring case).`,
    );
  }
  if (!self && db.select({ id: lists.id }).from(lists).where(whereLive(id)).get()) {
    throw new AppError("list_exists", "A list with this id already exists.");
  }
}

export interface ListPage {
  lists: List[];
  serverTime: string;
  /** The account's time zone, so a listing can say what day it is there. */
  timeZone: string;
  /** With `since`: lists deleted at or after it. */
  deleted?: { id: string; deletedAt: string }[];
}

/**
 * The account's live lists by name, with their counts; with `since`, only those changed at or after it
 * (renamed, or their counts moved) and the deletions since then.
 */
export function listLists({ db, timeZone }: AccountContext, query: { since?: string }): ListPage {
  const since = query.since ? new Date(query.since).toISOString() : undefined;
  const expired = expiredSince(since, "List again without `since`.");
  if (expired) throw expired;
  const rows = db
    .select()
    .from(lists)
    .where(and(isNull(lists.deletedAt), since ? gte(lists.updatedAt, since) : undefined))
    .orderBy(asc(lists.nameKey), asc(lists.id))
    .all();
  // The database clock in raw SQL: Drizzle has no SELECT without a table.
  const serverTime = db.get<{ now: string }>(sql`SELECT ${nowSql} AS now`).now;
  const page: ListPage = { lists: rows.map((row) => toList(db, row)), serverTime, timeZone };
  if (since) {
    page.deleted = db
      .select({ id: lists.id, deletedAt: sql<string>`${lists.deletedAt}` })
      .from(lists)
      .where(and(isNotNull(lists.deletedAt), gte(lists.deletedAt, since)))
      .orderBy(asc(lists.deletedAt), asc(lists.id))
      .all();
  }
  return page;
}

/** Creates a list, with the id given or a new one; a deleted list's id is taken over. */
export function createList({ db }: AccountContext, input: ListInput): List {
  const id = input.id ?? newId();
  const nameKey = nameKeyOf(input.name);
  refuseClash(db, id, nameKey);
  const fresh = { name: input.name, nameKey, createdAt: nowSql, updatedAt: nowSql, deletedAt: null };
  const row = db
    .insert(lists)
    .values({ id, ...fresh })
    .onConflictDoUpdate({ target: lists.id, set: fresh })
    .returning()
    .get();
  return toList(db, row);
}

/** Renames a list (`{}` returns it unchanged). Another live list with the name (ignoring case) is 409. */
export function updateList({ db }: AccountContext, { id, patch }: { id: string; patch: ListPatch }): List {
  const current = db.select().from(lists).where(whereLive(id)).get();
  if (!current) throw notFound();
  if (patch.name === undefined) return toList(db, current);
  const nameKey = nameKeyOf(patch.name);
  refuseClash(db, id, nameKey, id);
  const row = db
    .update(lists)
    .set({ name: patch.name, nameKey, updatedAt: nowSql })
    .where(eq(lists.id, id))
    .returning()
    .get()!;
  return toList(db, row);
}

/** Deletes a list and its tasks, both as tombstones: `since` syncs of lists and of tasks see the deletions. */
export function deleteList({ db }: AccountContext, { id }: { id: string }): null {
  const deleted = db
    .update(lists)
    .set({ deletedAt: nowSql, updatedAt: nowSql })
    .where(whereLive(id))
    .returning({ id: lists.id })
    .get();
  if (!deleted) throw notFound();
  db.update(tasks)
    .set(setClause({ deletedAt: nowSql }))
    .where(and(eq(tasks.listId, id), isNull(tasks.deletedAt)))
    .run();
  return null;
}
