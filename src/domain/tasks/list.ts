import { and, asc, eq, getTableColumns, gt, gte, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import { nowSql } from "../../db/clock";
import type { Db } from "../../db/client";
import { isTooBig } from "../../db/faults";
import { tasks } from "../../db/schema";
import { keyVerdictRows } from "../api-keys/service";
import type { AppError } from "../errors";
import { expiredSince } from "../retention";
import { decodeCursor, encodeCursor } from "./cursor";
import { heldListing, type ListedPage, pageToServe } from "./listing-cache";
import { chunkQuery, joinChunks } from "./listing-chunks";
import { taskArraySql } from "./row";
import { matchesSearch, searchTerms } from "./search";
import type { Task } from "./schemas";
import { type Caller, type CallerScope, taskStatement, type Outcome, runWithVerdictRow } from "./statements";

export interface ListTasksQuery {
  /** Words that title or notes must contain, each as a word prefix (search.ts). */
  q?: string;
  since?: string;
  completed?: boolean;
  listId?: string;
  important?: boolean;
  /** Dates (YYYY-MM-DD), inclusive, compared with the date `due` is written with. */
  dueBefore?: string;
  dueAfter?: string;
  limit?: number;
  cursor?: string;
}

export interface TaskPage {
  /** The page's tasks as a JSON array text, built by SQLite (see taskJsonSql); `parseTasks` reads it. */
  tasksJson: string;
  count: number;
  serverTime: string;
  deleted?: { id: string; deletedAt: string }[];
  nextCursor?: string;
}

export const parseTasks = (page: TaskPage) => JSON.parse(page.tasksJson) as Task[];

/** The values a listing binds: the query's own filters, and what the listing derives from the rest. */
type ListingValues = Pick<
  ListTasksQuery,
  "since" | "completed" | "listId" | "important" | "dueBefore" | "dueAfter" | "limit"
> & {
  /** The search's words as a JSON array (searchTerms). */
  terms?: string;
  cursorId?: string;
  limitPlusOne?: number;
  /** The tasks_version of the page this isolate holds, "" for none (see listing-cache.ts). */
  knownVersion: string;
};

/** Which filters a listing has: its statements' shape. */
interface ListingShape {
  search: boolean;
  since: boolean;
  completed: boolean;
  listId: boolean;
  important: boolean;
  dueBefore: boolean;
  dueAfter: boolean;
  cursor: boolean;
  limit: boolean;
  /** The tasks' JSON in a statement of chunks, not in the page's row (listing-chunks.ts). */
  chunked: boolean;
}

type Scope = CallerScope<ListingValues>;

const dueDate = sql<string>`substr(${tasks.due}, 1, 10)`;

function liveTasksWhere({ values: v, account }: Scope, shape: ListingShape, owner = account) {
  // A search starts from the account's own words in the index and checks the account on each row it
  // finds (matchesSearch), so its cost follows the matches, not the account's size (docs/scaling.md).
  const filters: (SQL | undefined)[] = [
    shape.search ? matchesSearch(owner, v.terms) : eq(tasks.accountId, owner),
    isNull(tasks.deletedAt),
  ];
  if (shape.since) filters.push(gte(tasks.updatedAt, v.since));
  if (shape.completed) filters.push(eq(tasks.completed, v.completed));
  if (shape.listId) filters.push(eq(tasks.listId, v.listId));
  if (shape.important) filters.push(eq(tasks.important, v.important));
  // A due date-time counts on the day it is written with (its own offset), as a person reads it.
  if (shape.dueBefore) filters.push(lte(dueDate, v.dueBefore));
  if (shape.dueAfter) filters.push(gte(dueDate, v.dueAfter));
  if (shape.cursor) filters.push(gt(tasks.id, v.cursorId));
  return and(...filters);
}

/** One page's rows by id: `limit + 1` rows are read so the extra one tells that another page follows. */
function rankedRows(db: Db, where: SQL | undefined, shape: ListingShape, v: Scope["values"]) {
  let rows = db
    .select({ ...getTableColumns(tasks), rn: sql<number>`row_number() OVER (ORDER BY ${tasks.id})`.as("rn") })
    .from(tasks)
    .where(where)
    .orderBy(asc(tasks.id))
    .$dynamic();
  if (shape.limit) rows = rows.limit(v.limitPlusOne);
  const ranked = rows.as("ranked");
  return { ranked, visible: shape.limit ? sql`${ranked.rn} <= ${v.limit}` : sql`1` };
}

/** Every matching task, ordered by (updatedAt, id): the order of a whole list. */
const wholeListOrder = sql`${tasks.updatedAt}, ${tasks.id}`;
const paged = (shape: ListingShape) => shape.limit || shape.cursor;

/**
 * The page as one row: its tasks as one JSON array text built by the aggregate (no per-task objects
 * cross from D1), the count, the cursor, the database clock and the key's verdict. Each field has its
 * own alias: D1 batch results are keyed by column name, and two `count(*)` columns would collapse.
 * Scoped by the key's account only while its tasks changed since the page this isolate holds.
 */
const listingPage = taskStatement((scope: Scope, shape: ListingShape) => {
  const { db, values: v } = scope;
  const where = liveTasksWhere(scope, shape, scope.accountChangedSince(v.knownVersion));
  const clock = { now: sql<string>`${nowSql}`.as("now"), verdict: scope.verdict };
  if (!paged(shape)) {
    return db
      .select({
        json: sql<string>`${shape.chunked ? sql`NULL` : taskArraySql(wholeListOrder)}`.as("json"),
        count: sql<number>`count(*)`.as("count"),
        // Same shape as a page; a whole list never has a next page.
        fetched: sql<number>`count(*)`.as("fetched"),
        lastId: sql<string | null>`NULL`.as("lastId"),
        ...clock,
      })
      .from(tasks)
      .where(where);
  }
  const { ranked, visible } = rankedRows(db, where, shape, v);
  return db
    .select({
      json: sql<string>`${shape.chunked ? sql`NULL` : taskArraySql(sql`${ranked.rn}`, visible)}`.as("json"),
      count: sql<number>`count(*) FILTER (WHERE ${visible})`.as("count"),
      fetched: sql<number>`count(*)`.as("fetched"),
      lastId: sql<string | null>`max(${ranked.id}) FILTER (WHERE ${visible})`.as("lastId"),
      ...clock,
    })
    .from(ranked);
});

/** The page's tasks' JSON in chunk rows, for a listing too large for one SQLite value. */
const listingChunks = taskStatement((scope: Scope, shape: ListingShape) => {
  const where = liveTasksWhere(scope, shape);
  if (!paged(shape)) return chunkQuery(scope.db, tasks, where, wholeListOrder);
  const { ranked, visible } = rankedRows(scope.db, where, shape, scope.values);
  return chunkQuery(scope.db, ranked, visible, sql`${ranked.rn}`);
});

/** The tombstones of a `since` sync. */
const listingTombstones = taskStatement(({ db, account, values: v }: Scope, _shape: ListingShape) =>
  db
    .select({ id: tasks.id, deletedAt: tasks.deletedAt })
    .from(tasks)
    .where(and(eq(tasks.accountId, account), isNotNull(tasks.deletedAt), gte(tasks.deletedAt, v.since)))
    .orderBy(asc(tasks.deletedAt), asc(tasks.id)),
);

const toUtc = (instant: string) => new Date(instant).toISOString();

/**
 * Lists live tasks; with `since`, only tasks changed at or after it, plus the tombstones since then.
 * One response (no `limit`) is ordered by (updatedAt, id). Pages (`limit`) walk by id instead:
 * edits move a task in (updatedAt, id) order, so a task edited between pages would be skipped or
 * sent twice, while its id never changes. Every page reports the first page's serverTime, so
 * whatever changed after the listing began also reaches the client on its next `since` sync.
 *
 * One D1 round trip, the key lookup included: the page's row carries the verdict. A listing whose
 * JSON outgrows one SQLite value runs again in chunks (listing-chunks.ts): a second round trip, for
 * such accounts only.
 */
export async function listTasksAs(caller: Caller, query: ListTasksQuery): Promise<Outcome<TaskPage>> {
  try {
    return await runListing(caller, query, false);
  } catch (e) {
    if (!isTooBig(e)) throw e;
    return runListing(caller, query, true);
  }
}

async function runListing(caller: Caller, query: ListTasksQuery, chunked: boolean): Promise<Outcome<TaskPage>> {
  const since = query.since ? toUtc(query.since) : undefined;
  // Problems with the query are raised only once the key is known to be allowed to list.
  let problem = expiredSince(since, "Drop your local copy and list again without `since`.");
  let cursor: ReturnType<typeof decodeCursor> | undefined;
  try {
    cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  } catch (e) {
    problem ??= e as AppError;
  }
  const shape: ListingShape = {
    search: query.q !== undefined,
    since: since !== undefined,
    completed: query.completed !== undefined,
    listId: query.listId !== undefined,
    important: query.important !== undefined,
    dueBefore: query.dueBefore !== undefined,
    dueAfter: query.dueAfter !== undefined,
    cursor: cursor !== undefined,
    limit: query.limit !== undefined,
    chunked,
  };
  const values: ListingValues = {
    terms: query.q === undefined ? undefined : JSON.stringify(searchTerms(query.q)),
    since,
    completed: query.completed,
    listId: query.listId,
    important: query.important,
    dueBefore: query.dueBefore,
    dueAfter: query.dueAfter,
    cursorId: cursor?.id,
    limit: query.limit,
    limitPlusOne: query.limit === undefined ? undefined : query.limit + 1,
    knownVersion: "",
  };
  // A page this isolate already read is served again while D1 reports the account's tasks unchanged
  // (listing-cache.ts). Not for `since` syncs: their tombstones are a second statement. Nor chunked
  // listings: they are far above what the cache holds. Only for API keys: the version to check comes
  // with the key's verdict.
  const cacheKey =
    "keyHash" in caller && !since && !chunked ? `${caller.keyHash} ${JSON.stringify([shape, values])}` : undefined;
  const held = cacheKey ? heldListing(cacheKey) : undefined;
  values.knownVersion = held?.version ?? "";
  const { auth, results } = await runWithVerdictRow(caller, [
    listingPage(caller, shape, values),
    ...(chunked ? [listingChunks(caller, shape, values)] : []),
    ...(since && !cursor ? [listingTombstones(caller, shape, values)] : []),
  ]);
  if (problem) throw problem;
  const [[row], ...rest] = results as [(ListedPage & { now: string; verdict: string | null })[], ...unknown[][]];
  const chunks = chunked ? (rest.shift() as { json: string }[]) : undefined;
  const deleted = rest[0] as { id: string; deletedAt: string | null }[] | undefined;
  const read: ListedPage = {
    json: chunks ? joinChunks(chunks) : row!.json,
    count: row!.count,
    fetched: row!.fetched,
    lastId: row!.lastId,
  };
  // The verdict was judged above, so the key is live and its tasks_version is in it.
  const version = cacheKey ? (keyVerdictRows(row!.verdict)[0]?.tasksVersion ?? null) : null;
  const listed = cacheKey ? pageToServe(cacheKey, held, version, read) : read;
  const serverTime = cursor?.serverTime ?? row!.now;
  const page: TaskPage = { tasksJson: listed.json, count: listed.count, serverTime };
  if (since) page.deleted = (deleted ?? []).map((d) => ({ id: d.id, deletedAt: d.deletedAt! }));
  if (listed.fetched > listed.count && listed.lastId) page.nextCursor = encodeCursor({ id: listed.lastId, serverTime });
  return { value: page, auth };
}
