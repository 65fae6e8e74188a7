import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { tasks } from "../schema";
import type { AccountContext, AccountDb } from "../context";
import { AppError } from "../../domain/errors";
import { hasLabels } from "../labels/names";
import { closestListNames, knownList, resolveListId } from "../lists/names";
import { expiredSince } from "../retention";
import { type Cursor, decodeCursor, encodeCursor } from "../../domain/tasks/cursor";
import { type Listing, memoisedListing } from "./listing-memo";
import { taskJsonSql } from "./row";
import type { Task } from "../../domain/tasks/schemas";
import { matchesSearch, searchTerms } from "./search";

export interface ListTasksQuery {
  /** Words that title or notes must contain, each as a word prefix (search.ts). */
  q?: string;
  since?: string;
  completed?: boolean;
  /** A list's id, or its name (lists/names.ts). */
  listId?: string;
  important?: boolean;
  /** Label names, matched ignoring case: a task must have every one of them. */
  label?: string[];
  /** Dates (YYYY-MM-DD), inclusive, compared with the date `due` is written with. */
  dueBefore?: string;
  dueAfter?: string;
  /** Any of these priorities (1–4). */
  priority?: number[];
  /** The subtasks of this task; "" for top-level tasks only. */
  parentId?: string;
  /** Without it, (updatedAt, id), or id with `limit`: see listTasks. */
  sort?: ListSort;
  limit?: number;
  cursor?: string;
}

export const listSorts = ["position", "due", "priority"] as const;
export type ListSort = (typeof listSorts)[number];

/**
 * One answer from an account's object carries at most 32 MiB (workerd's limit on a call's value), a
 * string as 1 byte a character while it is Latin-1 and 2 once it is not. A listing past it (hundreds of
 * tasks at the input limits) is refused with the fix: pages (`limit`) are each far smaller.
 */
const MAX_LISTING_BYTES = 31 * 1024 * 1024;
// Every character within U+0000–U+00FF: spelt by its range's ends, not as control characters.
const LATIN1 = new RegExp(`^[${String.fromCharCode(0)}-${String.fromCharCode(255)}]*$`);
function refuseOversized(json: string) {
  const bytes = LATIN1.test(json) ? json.length : 2 * json.length;
  if (bytes <= MAX_LISTING_BYTES) return;
  throw new AppError(
    "validation_failed",
    "These tasks are too large to send in one response (over 31 MiB). Page them: add `limit=100` and follow `meta.nextCursor`.",
    [{ path: "limit", message: "required for a listing this large" }],
  );
}

/** A page's tasks as objects (MCP's structured result; the tasks page). */
export const tasksOf = (page: Pick<TaskPage, "tasksJson">) => JSON.parse(page.tasksJson) as Task[];

export interface TaskPage {
  /** The page's tasks as one JSON array text (taskJsonSql per task): sent as it is; `tasksOf` reads it. */
  tasksJson: string;
  count: number;
  serverTime: string;
  /** The account's time zone, for a surface that resolves "today" (MCP). */
  timeZone: string;
  deleted?: { id: string; deletedAt: string }[];
  nextCursor?: string;
  /**
   * Set when `listId` names no list, by id or by name: the filter matched nothing for that reason; with
   * the names of the lists closest to it.
   */
  unknownList?: { closest: string[] };
}

// A due date-time counts on the day it is written with (its own offset), as a person reads it.
const dueDate = sql<string>`substr(${tasks.due}, 1, 10)`;

function filtersOf(query: ListTasksQuery, listId: string | undefined, since: string | undefined): SQL | undefined {
  const filters: (SQL | undefined)[] = [isNull(tasks.deletedAt)];
  if (query.q !== undefined) filters.push(matchesSearch(searchTerms(query.q)));
  if (since !== undefined) filters.push(gte(tasks.updatedAt, since));
  if (query.completed !== undefined) filters.push(eq(tasks.completed, query.completed));
  if (listId !== undefined) filters.push(eq(tasks.listId, listId));
  if (query.important !== undefined) filters.push(eq(tasks.important, query.important));
  if (query.label !== undefined) filters.push(...hasLabels(query.label));
  if (query.dueBefore !== undefined) filters.push(lte(dueDate, query.dueBefore));
  if (query.dueAfter !== undefined) filters.push(gte(dueDate, query.dueAfter));
  if (query.priority !== undefined) filters.push(inArray(tasks.priority, query.priority));
  if (query.parentId !== undefined)
    filters.push(query.parentId === "" ? isNull(tasks.parentId) : eq(tasks.parentId, query.parentId));
  return and(...filters);
}

/**
 * A task's place in its list's tree, as text: its ancestors' positions and its own, separated by a space,
 * which sorts before every character of a key, so a parent comes right before its subtasks and they
 * before its next sibling. Four levels at most: three ancestors.
 */
const treeOrder = sql.raw(
  `coalesce((SELECT coalesce(g3.position || ' ', '') || coalesce(g2.position || ' ', '') || g1.position || ' ' FROM tasks g1 LEFT JOIN tasks g2 ON g2.id = g1.parent_id LEFT JOIN tasks g3 ON g3.id = g2.parent_id WHERE g1.id = tasks.parent_id), '') || tasks.position`,
);

/** The orders of `sort`: each ends in id, so two listings of the same tasks agree. */
const orders: Record<ListSort, SQL[]> = {
  // Lists apart (tasks in no list first), each as its tree.
  position: [asc(tasks.listId), asc(treeOrder), asc(tasks.id)],
  // Undated last; a date-time by the day it is written with, then by itself.
  due: [asc(sql`${tasks.due} IS NULL`), asc(dueDate), asc(tasks.due), asc(tasks.id)],
  priority: [desc(tasks.priority), asc(sql`${tasks.due} IS NULL`), asc(dueDate), asc(tasks.due), asc(tasks.id)],
};

/**
 * Lists live tasks; with `since`, only tasks changed at or after it, plus the tombstones since then.
 * One response (no `limit`) is ordered by (updatedAt, id), or by `sort`. Pages (`limit`) walk by id
 * instead: edits move a task in (updatedAt, id) order, so a task edited between pages would be skipped or
 * sent twice, while its id never changes. Sorted pages walk by offset, so a task moved while a client
 * pages may be: the `since` sync after the listing learns of every such change. Every page reports the first page's serverTime, so
 * whatever changed after the listing began also reaches the client on its next `since` sync.
 * The rows are read again only after a write (listing-memo.ts).
 */
export function listTasks(ctx: AccountContext, query: ListTasksQuery): TaskPage {
  const since = query.since ? new Date(query.since).toISOString() : undefined;
  const expired = expiredSince(since, "Drop your local copy and list again without `since`.");
  if (expired) throw expired;
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const { db } = ctx;
  const { moreAfter, moreAt, ...listing } = memoisedListing(db, query, () => readListing(db, query, since, cursor));
  // The database clock in raw SQL: Drizzle has no SELECT without a table.
  const serverTime = cursor?.serverTime ?? db.get<{ now: string }>(sql`SELECT ${nowSql} AS now`).now;
  const page: TaskPage = { ...listing, serverTime, timeZone: ctx.timeZone };
  if (moreAfter !== undefined) page.nextCursor = encodeCursor({ id: moreAfter, serverTime });
  if (moreAt !== undefined) page.nextCursor = encodeCursor({ offset: moreAt, serverTime });
  return page;
}

/** What a listing reads: the page's tasks, its tombstones with `since`, and whether `listId` names a list. */
function readListing(db: AccountDb, query: ListTasksQuery, since?: string, cursor?: Cursor): Listing {
  const listId = query.listId === undefined ? undefined : resolveListId(db, query.listId);
  const afterId = query.sort ? undefined : cursor?.id;
  const offset = query.sort ? (cursor?.offset ?? 0) : 0;
  const where = and(filtersOf(query, listId, since), afterId === undefined ? undefined : gt(tasks.id, afterId));
  const columns = { id: tasks.id, json: sql<string>`${taskJsonSql}` };
  const order = query.sort
    ? orders[query.sort]
    : query.limit === undefined
      ? [asc(tasks.updatedAt), asc(tasks.id)]
      : [asc(tasks.id)];
  const read = db
    .select(columns)
    .from(tasks)
    .where(where)
    .orderBy(...order);
  const rows =
    query.limit === undefined
      ? read.all()
      : read
          .limit(query.limit + 1)
          .offset(offset)
          .all();
  // One more row than the page was read: it tells that another page follows.
  const more = query.limit !== undefined && rows.length > query.limit;
  if (more) rows.pop();
  const tasksJson = `[${rows.map((row) => row.json).join(",")}]`;
  refuseOversized(tasksJson);
  const listing: Mutable<Listing> = { tasksJson, count: rows.length };
  if (since && cursor === undefined) {
    listing.deleted = db
      .select({ id: tasks.id, deletedAt: sql<string>`${tasks.deletedAt}` })
      .from(tasks)
      .where(and(isNotNull(tasks.deletedAt), gte(tasks.deletedAt, since)))
      .orderBy(asc(tasks.deletedAt), asc(tasks.id))
      .all();
  }
  if (more && query.sort) listing.moreAt = offset + rows.length;
  else if (more) listing.moreAfter = rows.at(-1)!.id;
  if (query.listId !== undefined && !knownList(db, query.listId))
    listing.unknownList = { closest: closestListNames(db, query.listId) };
  return listing;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
