import {
  and,
  asc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  or,
  type Placeholder,
  sql,
  type SQL,
} from "drizzle-orm";
import { nowSql, tasks, type TaskRow } from "../../db/schema";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { isTooBig } from "../../db/faults";
import { compiled } from "../../db/compiled";
import { keyAccountChangedSql, keyAccountSql, keyVerdictRows, keyVerdictSql } from "../api-keys/service";
import type { ServiceContext } from "../context";
import { type Caller, type KeyCaller, type Outcome, type Scope, scopeOf } from "./caller";
import { AppError } from "../errors";
import { newId } from "../ids";
import { TOMBSTONE_DAYS, TOMBSTONE_MS } from "../retention";
import { decodeCursor, encodeCursor } from "./cursor";
import { matchesVersions, versionsIn, type Versions } from "./etag";
import { createTaskOnce } from "./idempotency";
import { heldListing, type ListedPage, pageToServe } from "./listing-cache";
import { chunkQuery, joinChunks } from "./listing-chunks";
import { taskArraySql, toTask } from "./mapping";
import { nextOccurrence } from "./recurrence";
import type { Task, TaskInput, TaskPatch } from "./schemas";

/** Every change strictly increases updatedAt, even two changes within one millisecond. */
const bumpedUpdatedAt = sql`max(${nowSql}, strftime('%Y-%m-%dT%H:%M:%fZ', ${tasks.updatedAt}, '+0.001 seconds'))`;

const notFound = () => new AppError("task_not_found", "No task with this id in your account.");
const stale = () =>
  new AppError(
    "precondition_failed",
    "The task changed since you read it (If-Match does not match its ETag). Get it again, then retry.",
  );

/**
 * A live task of one account: the one place isolation is enforced. `account` is the actor's id,
 * or the subquery that yields a key's account (see caller.ts).
 */
const ownLiveTaskIn = (account: string | SQL, id: string) =>
  and(eq(tasks.id, id), eq(tasks.accountId, account), isNull(tasks.deletedAt));
const ownLiveTask = (ctx: ServiceContext, id: string) => ownLiveTaskIn(ctx.actor.accountId, id);

/**
 * A task's columns, plus for an API key its lookup as `verdict` (Scope.verdict): a read or write that
 * carries it runs with `verdictIn: "rows"`, so the key costs no statement of its own.
 */
const taskColumnsWith = (verdict: SQL | undefined) =>
  verdict
    ? { ...getTableColumns(tasks), verdict: sql<string | null>`${verdict}`.as("verdict") }
    : getTableColumns(tasks);

/** The If-Match condition as SQL, evaluated inside the write so check and write are one step. */
const versionCondition = (versions: Versions | undefined) =>
  versions === undefined || versions === "*"
    ? undefined
    : versions.length
      ? inArray(tasks.updatedAt, versions)
      : sql`0`;

/** Options of the writing verbs. Surfaces without preconditions (MCP) leave them out. */
export interface WriteOptions {
  /** An If-Match header value: the write happens only while the task still has one of these ETags. */
  ifMatch?: string;
}

export interface CreateOptions {
  /** Idempotency-Key (REST) or clientRequestId (MCP): a retry with the same key and input replays the first result. */
  idempotencyKey?: string;
}

export interface ListTasksQuery {
  since?: string;
  completed?: boolean;
  listId?: string;
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

const toUtc = (instant: string) => new Date(instant).toISOString();

export const parseTasks = (page: TaskPage) => JSON.parse(page.tasksJson) as Task[];

/** The values a listing binds; in a compiled statement, placeholders stand in for them. */
type ListingValues = {
  since: unknown;
  /** 1 or 0 (SQLite integers: placeholders skip Drizzle's boolean encoding). */
  completed: unknown;
  listId: unknown;
  cursorId: unknown;
  limit: unknown;
  limitPlusOne: unknown;
  /** API keys: the tasks_version of the page this isolate holds, "" for none (see listing-cache.ts). */
  knownVersion?: unknown;
};

/** Which filters a listing has: its statements' shape. Each shape is compiled once for API keys. */
interface ListingShape {
  since: boolean;
  completed: boolean;
  listId: boolean;
  cursor: boolean;
  limit: boolean;
  /** The tasks' JSON in a statement of chunks, not in the page's row (listing-chunks.ts). */
  chunked: boolean;
}

/** For an API key, the key lookup as the page row's `verdict` column (see keyVerdictSql); none for an actor. */
type Verdict = { verdict?: SQL.Aliased<string | null> };

/**
 * Every matching task, ordered by (updatedAt, id), as one JSON array text. Each field has its own
 * alias: D1 batch results are keyed by column name, and two `count(*)` columns would collapse.
 */
const wholeListOrder = sql`${tasks.updatedAt}, ${tasks.id}`;
const wholeListQuery = (db: Db, where: SQL | undefined, shape: ListingShape, verdict: Verdict) =>
  db
    .select({
      ...verdict,
      json: sql<string>`${shape.chunked ? sql`NULL` : taskArraySql(wholeListOrder)}`.as("json"),
      count: sql<number>`count(*)`.as("count"),
      // Same shape as a page; a whole list never has a next page.
      fetched: sql<number>`count(*)`.as("fetched"),
      lastId: sql<string | null>`NULL`.as("lastId"),
      now: sql<string>`${nowSql}`.as("now"),
    })
    .from(tasks)
    .where(where);

/** One page's rows by id: `limit + 1` rows are read so the extra one tells that another page follows. */
function rankedRows(db: Db, where: SQL | undefined, shape: ListingShape, v: ListingValues) {
  let rows = db
    .select({ ...getTableColumns(tasks), rn: sql<number>`row_number() OVER (ORDER BY ${tasks.id})`.as("rn") })
    .from(tasks)
    .where(where)
    .orderBy(asc(tasks.id))
    .$dynamic();
  if (shape.limit) rows = rows.limit(v.limitPlusOne as number);
  const ranked = rows.as("ranked");
  return { ranked, visible: shape.limit ? sql`${ranked.rn} <= ${v.limit}` : sql`1` };
}

function pageQuery(db: Db, where: SQL | undefined, shape: ListingShape, v: ListingValues, verdict: Verdict) {
  const { ranked, visible } = rankedRows(db, where, shape, v);
  return db
    .select({
      ...verdict,
      json: sql<string>`${shape.chunked ? sql`NULL` : taskArraySql(sql`${ranked.rn}`, visible)}`.as("json"),
      count: sql<number>`count(*) FILTER (WHERE ${visible})`.as("count"),
      fetched: sql<number>`count(*)`.as("fetched"),
      lastId: sql<string | null>`max(${ranked.id}) FILTER (WHERE ${visible})`.as("lastId"),
      // The database clock in the same statement as the read: what serverTime promises.
      now: sql<string>`${nowSql}`.as("now"),
    })
    .from(ranked);
}

/**
 * The page (with the clock), for a chunked listing its tasks' JSON in chunks, and for a `since` sync
 * the tombstones: one round trip, one snapshot. Pages (`limit` or `cursor`) walk by id, a whole list
 * is ordered by (updatedAt, id).
 */
function listingStatements(
  db: Db,
  account: string | SQL,
  shape: ListingShape,
  v: ListingValues,
  verdict: Verdict = {},
) {
  const filters: (SQL | undefined)[] = [eq(tasks.accountId, account), isNull(tasks.deletedAt)];
  if (shape.since) filters.push(gte(tasks.updatedAt, v.since as string));
  if (shape.completed) filters.push(eq(tasks.completed, v.completed as boolean));
  if (shape.listId) filters.push(eq(tasks.listId, v.listId as string));
  if (shape.cursor) filters.push(gt(tasks.id, v.cursorId as string));
  // The whole page crosses from D1 as one JSON text built by the aggregate: no per-task objects
  // in between. taskJsonSql (mapping.ts) reads the rows' columns by name, so each task is serialised once.
  const paged = shape.limit || shape.cursor;
  const where = and(...filters);
  const page = paged ? pageQuery(db, where, shape, v, verdict) : wholeListQuery(db, where, shape, verdict);
  const chunks: ReturnType<typeof chunkQuery>[] = [];
  if (shape.chunked && paged) {
    const { ranked, visible } = rankedRows(db, where, shape, v);
    chunks.push(chunkQuery(db, ranked, visible, sql`${ranked.rn}`));
  } else if (shape.chunked) chunks.push(chunkQuery(db, tasks, where, wholeListOrder));
  if (!shape.since || shape.cursor) return [page, ...chunks];
  const tombstones = db
    .select({ id: tasks.id, deletedAt: tasks.deletedAt })
    .from(tasks)
    .where(and(eq(tasks.accountId, account), isNotNull(tasks.deletedAt), gte(tasks.deletedAt, v.since as string)))
    .orderBy(asc(tasks.deletedAt), asc(tasks.id));
  return [page, ...chunks, tombstones];
}

/** How many statements a listing of this shape sends: the page, the chunks, the tombstones. */
const statementCount = (shape: ListingShape) => 1 + Number(shape.chunked) + Number(shape.since && !shape.cursor);

// Per shape: the listing's statements for an API key, compiled once (see db/compiled.ts).
const compiledListings = new Map<string, ReturnType<typeof compileListing>>();
const compileListing = (shape: ListingShape) =>
  Array.from({ length: statementCount(shape) }, (_, index) =>
    // The page is scoped by the key's account only while its tasks changed since the page this isolate
    // holds (knownVersion); the chunks and the tombstones of a `since` sync by the account itself.
    compiled<ListingValues & { keyHash: string }>((db, p) =>
      index === 0
        ? listingStatements(db, keyAccountChangedSql(p.keyHash, p.knownVersion), shape, p, {
            verdict: keyVerdictSql(p.keyHash).as("verdict"),
          })[0]!
        : listingStatements(db, keyAccountSql(p.keyHash), shape, p)[index]!,
    ),
  );
function keyListingStatements(caller: KeyCaller, shape: ListingShape, v: ListingValues): BatchItem<"sqlite">[] {
  const key = JSON.stringify(shape);
  let statements = compiledListings.get(key);
  if (!statements) {
    statements = compileListing(shape);
    compiledListings.set(key, statements);
  }
  return statements.map((statement) => statement.with(caller.db, { ...v, keyHash: caller.keyHash }));
}

/** A listing's statements for one D1 batch, and how to read their results. */
interface ListingPlan {
  statements: BatchItem<"sqlite">[];
  finish(results: unknown[]): TaskPage;
  /** A problem with the query, raised only once the caller is known to be allowed to list. */
  problem?: AppError;
}

/**
 * Lists live tasks; with `since`, only tasks changed at or after it, plus the tombstones since then.
 * One response (no `limit`) is ordered by (updatedAt, id). Pages (`limit`) walk by id instead:
 * edits move a task in (updatedAt, id) order, so a task edited between pages would be skipped or
 * sent twice, while its id never changes. Every page reports the first page's serverTime, so
 * whatever changed after the listing began also reaches the client on its next `since` sync.
 */
function planListing(caller: Caller, scope: Scope, query: ListTasksQuery, chunked: boolean): ListingPlan {
  const since = query.since ? toUtc(query.since) : undefined;
  let problem: AppError | undefined;
  let cursor: ReturnType<typeof decodeCursor> | undefined;
  if (since && Date.parse(since) < Date.now() - TOMBSTONE_MS) {
    problem = new AppError(
      "sync_expired",
      `\`since\` is older than ${TOMBSTONE_DAYS} days, so deletions before it are forgotten. Drop your local copy and list again without \`since\`.`,
    );
  }
  try {
    cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  } catch (e) {
    problem ??= e as AppError;
  }
  const shape: ListingShape = {
    since: since !== undefined,
    completed: query.completed !== undefined,
    listId: query.listId !== undefined,
    cursor: cursor !== undefined,
    limit: query.limit !== undefined,
    chunked,
  };
  const values: ListingValues = {
    since,
    completed: query.completed ? 1 : 0,
    listId: query.listId,
    cursorId: cursor?.id,
    limit: query.limit,
    limitPlusOne: query.limit === undefined ? undefined : query.limit + 1,
  };
  // For an API key, a page this isolate already read is served again while D1 reports the account's
  // tasks unchanged (listing-cache.ts). Not for `since` syncs: their tombstones are a second statement.
  // Nor chunked listings: they are far above what the cache holds.
  const cacheKey =
    "keyHash" in caller && !since && !chunked ? `${caller.keyHash} ${JSON.stringify([shape, values])}` : undefined;
  const held = cacheKey ? heldListing(cacheKey) : undefined;
  values.knownVersion = held?.version ?? "";
  return {
    problem,
    statements:
      "keyHash" in caller
        ? keyListingStatements(caller, shape, values)
        : listingStatements(scope.db, scope.account, shape, values),
    finish(results) {
      const [[row], ...rest] = results as [(ListedPage & { now: string; verdict?: string | null })[], ...unknown[][]];
      const chunks = chunked ? (rest.shift() as { json: string }[]) : undefined;
      const deleted = rest[0] as { id: string; deletedAt: string | null }[] | undefined;
      const read: ListedPage = {
        json: chunks ? joinChunks(chunks) : row!.json,
        count: row!.count,
        fetched: row!.fetched,
        lastId: row!.lastId,
      };
      // Reached only for an allowed key (scope.run judged the verdict), so the verdict is there.
      const version = cacheKey ? (keyVerdictRows(row!.verdict ?? null)[0]?.tasksVersion ?? null) : null;
      const listed = cacheKey ? pageToServe(cacheKey, held, version, read) : read;
      const serverTime = cursor?.serverTime ?? row!.now;
      const result: TaskPage = { tasksJson: listed.json, count: listed.count, serverTime };
      if (since) result.deleted = (deleted ?? []).map((d) => ({ id: d.id, deletedAt: d.deletedAt! }));
      if (listed.fetched > listed.count && listed.lastId)
        result.nextCursor = encodeCursor({ id: listed.lastId, serverTime });
      return result;
    },
  };
}

/**
 * Lists tasks (see planListing) in one D1 round trip, the key lookup included. A listing whose JSON
 * outgrows one SQLite value runs again in chunks (listing-chunks.ts): a second round trip, for such
 * accounts only.
 */
export async function listTasksAs(caller: Caller, query: ListTasksQuery): Promise<Outcome<TaskPage>> {
  const scope = scopeOf(caller);
  try {
    return await runListing(caller, scope, query, false);
  } catch (e) {
    if (!isTooBig(e)) throw e;
    return runListing(caller, scope, query, true);
  }
}

async function runListing(
  caller: Caller,
  scope: Scope,
  query: ListTasksQuery,
  chunked: boolean,
): Promise<Outcome<TaskPage>> {
  const plan = planListing(caller, scope, query, chunked);
  // The page's one row carries the key's verdict: authentication adds no statement.
  const { auth, results } = await scope.run(plan.statements, { verdictIn: "row" });
  if (plan.problem) throw plan.problem;
  return { value: plan.finish(results), auth };
}

export async function listTasks(ctx: ServiceContext, query: ListTasksQuery): Promise<TaskPage> {
  return (await listTasksAs(ctx, query)).value;
}

export async function getTaskAs(caller: Caller, id: string): Promise<Outcome<Task>> {
  const scope = scopeOf(caller);
  const { auth, results } = await scope.run([readStatement(scope, id)], { verdictIn: "rows" });
  const [row] = results[0] as TaskRow[];
  if (!row) throw notFound();
  return { value: toTask(row), auth };
}

/** A live task of the scope's account, with the key's verdict (Scope.verdict). */
function readStatement({ db, account, verdict }: Scope, id: string) {
  return db.select(taskColumnsWith(verdict)).from(tasks).where(ownLiveTaskIn(account, id));
}

async function readTask(ctx: ServiceContext, id: string): Promise<TaskRow> {
  const [row] = await ctx.db.select().from(tasks).where(ownLiveTask(ctx, id));
  if (!row) throw notFound();
  return row;
}

/** Column values of a new task, except its account. */
const taskFields = (input: TaskInput, id = newId()) => ({
  id,
  title: input.title,
  notes: input.notes || null,
  listId: input.listId ?? null,
  due: input.due ?? null,
  reminder: input.reminder ?? null,
  repeat: input.repeat ?? null,
  important: input.important ?? false,
});

export async function createTask(ctx: ServiceContext, input: TaskInput, options: CreateOptions = {}): Promise<Task> {
  return (await createTaskAs(ctx, input, options)).value.task;
}

/**
 * Creates a task, and says whether the result is a replay of an earlier request with the same
 * idempotency key. Without a key, the insert is one statement scoped by the caller's account,
 * so for an API key the lookup and the insert share one round trip; with one, createTaskOnce's
 * batch carries the lookup the same way.
 */
export async function createTaskAs(
  caller: Caller,
  input: TaskInput,
  options: CreateOptions = {},
): Promise<Outcome<{ task: Task; replayed: boolean }>> {
  if (options.idempotencyKey !== undefined)
    return createTaskOnce(caller, taskFields(input), input, options.idempotencyKey);
  const v = { ...taskFields(input), important: input.important ? 1 : 0 };
  // For a key, the compiled statement; the lookup and the insert share one round trip.
  const scope = scopeOf(caller);
  const insert =
    "keyHash" in caller
      ? insertTaskForKey.with(caller.db, { ...v, keyHash: caller.keyHash })
      : insertTaskFor(scope.db, scope.account, v, undefined);
  // The inserted row carries the verdict; nothing inserted means a refused key (see Scope.run).
  const { auth, results } = await scope.run([insert], { verdictIn: "rows" });
  const [row] = results[0] as TaskRow[];
  return { value: { task: toTask(row!), replayed: false }, auth };
}

/** Column values of a new task as bound to the insert: `important` as a SQLite integer. */
type NewTask = Omit<ReturnType<typeof taskFields>, "important"> & { important: number };

/** Inserts a task for `account`; the owner row exists only for an allowed caller, so a refused key inserts nothing. */
const insertTaskFor = (db: Db, account: string | SQL, v: { [K in keyof NewTask]: unknown }, verdict: SQL | undefined) =>
  db
    .insert(tasks)
    .select(
      sql`SELECT ${v.id}, owner.id, ${v.title}, ${v.notes}, ${v.listId}, ${v.due}, ${v.reminder}, ${v.repeat},
                 ${v.important}, 0, ${nowSql}, ${nowSql}, NULL, NULL
          FROM (SELECT ${account} AS id) owner WHERE owner.id IS NOT NULL`,
    )
    .returning(taskColumnsWith(verdict));
const insertTaskForKey = compiled<NewTask & { keyHash: string }>((db, p) =>
  insertTaskFor(db, keyAccountSql(p.keyHash), p, keyVerdictSql(p.keyHash)),
);

/** Maps a patch to column updates: "" clears a text field, null clears the reminder. */
function patchColumns(patch: TaskPatch): Partial<TaskRow> {
  const set: Partial<TaskRow> = {};
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.completed !== undefined) set.completed = patch.completed;
  if (patch.important !== undefined) set.important = patch.important;
  if (patch.listId !== undefined) set.listId = patch.listId || null;
  if (patch.due !== undefined) set.due = patch.due || null;
  if (patch.reminder !== undefined) set.reminder = patch.reminder;
  if (patch.repeat !== undefined) set.repeat = patch.repeat || null;
  if (patch.notes !== undefined) set.notes = patch.notes || null;
  return set;
}

/** A changed task, and the next occurrence its completion created (repeating tasks). */
export interface TaskChange {
  task: Task;
  next?: Task;
}

/**
 * Applies a patch. `completed: true` on an open repeating task also creates the next occurrence
 * (see completeRow). With `ifMatch`, a stale ETag is 412 and nothing changes.
 */
export async function updateTaskAs(
  caller: Caller,
  id: string,
  patch: TaskPatch,
  options: WriteOptions = {},
): Promise<Outcome<TaskChange>> {
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  const set = patchColumns(patch);
  // Completion may create the next occurrence in the actor's time zone (see completeAs).
  if (set.completed === true) return completeAs(caller, id, set, versions, true);
  const scope = scopeOf(caller);
  // `{}` is a no-op: the task comes back with updatedAt unchanged.
  if (Object.keys(set).length === 0) {
    const { auth, results } = await scope.run([readStatement(scope, id)], { verdictIn: "rows" });
    const [row] = results[0] as TaskRow[];
    if (!row) throw notFound();
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    return { value: { task: toTask(row) }, auth };
  }
  const statements =
    "keyHash" in caller && (versions === undefined || versions === "*" || versions.length === 1)
      ? keyUpdateStatements(caller, id, set, versions)
      : updateStatements(scope.db, scope.account, id, set, versionCondition(versions), scope.verdict);
  // The updated row carries the verdict; when nothing was updated, the lookup tells 401/403 from 404/412.
  const { auth, results } = await scope.run(statements, { verdictIn: "rows" });
  const [[updated], [current] = []] = results as [TaskRow[], { id: string }[]?];
  if (updated) return { value: { task: toTask(updated) }, auth };
  throw current ? stale() : notFound();
}

/**
 * The update, and only when a version condition guards it, the task's existence to tell 412 from
 * 404 when nothing was updated. Unguarded (no If-Match, or `*`), nothing updated means no such task.
 */
const updateStatements = (
  db: Db,
  account: string | SQL,
  id: unknown,
  set: Record<string, unknown>,
  condition: SQL | undefined,
  verdict: SQL | undefined,
) => {
  const update = db
    .update(tasks)
    .set({ ...set, updatedAt: bumpedUpdatedAt })
    .where(and(ownLiveTaskIn(account, id as string), condition))
    .returning(taskColumnsWith(verdict));
  if (!condition) return [update];
  return [
    update,
    db
      .select({ id: tasks.id })
      .from(tasks)
      .where(ownLiveTaskIn(account, id as string)),
  ];
};

// Per shape (the patched columns, with or without one If-Match version): compiled once for API keys.
const compiledUpdates = new Map<string, ReturnType<typeof compiled>[]>();
function keyUpdateStatements(caller: KeyCaller, id: string, set: Partial<TaskRow>, versions: Versions | undefined) {
  const columns = Object.keys(set).sort() as (keyof TaskRow)[];
  const guarded = Array.isArray(versions);
  const shape = `${columns.join(",")}|${guarded}`;
  let statements = compiledUpdates.get(shape);
  if (!statements) {
    const build = (db: Db, p: Record<string, Placeholder>) =>
      updateStatements(
        db,
        keyAccountSql(p.keyHash!),
        p.id,
        Object.fromEntries(columns.map((column) => [column, p[column]])),
        guarded ? inArray(tasks.updatedAt, [p.version!]) : undefined,
        keyVerdictSql(p.keyHash!),
      );
    statements = [0, 1]
      .slice(0, guarded ? 2 : 1)
      .map((index) => compiled((db, p) => build(db, p as Record<string, Placeholder>)[index]!));
    compiledUpdates.set(shape, statements);
  }
  // Placeholders skip Drizzle's encoders: booleans go in as SQLite integers.
  const values: Record<string, unknown> = { keyHash: caller.keyHash, id, version: guarded ? versions[0] : undefined };
  for (const column of columns) values[column] = typeof set[column] === "boolean" ? Number(set[column]) : set[column];
  return statements.map((statement) => statement.with(caller.db, values));
}

/**
 * Marks a task done. Completing a completed task returns it unchanged (idempotent).
 * A repeating task gets its next occurrence, returned as `next`.
 */
export async function completeTask(ctx: ServiceContext, id: string, options: WriteOptions = {}): Promise<TaskChange> {
  return (await completeTaskAs(ctx, id, options)).value;
}

/** completeTask for any caller (see completeAs). */
export async function completeTaskAs(
  caller: Caller,
  id: string,
  options: WriteOptions = {},
): Promise<Outcome<TaskChange>> {
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  return completeAs(caller, id, { completed: true }, versions, false);
}

/**
 * Completion in as few round trips as the task allows. One batch holds the key lookup, the
 * completion itself guarded so that it runs only when it cannot create a next occurrence (the task
 * does not repeat, or it is already completed and a PATCH rewrites it), and a read of the task. A
 * task that does not repeat is done in that one round trip; otherwise completeRow goes on from the
 * row the batch read (a repeating task: two round trips in all).
 */
async function completeAs(
  caller: Caller,
  id: string,
  set: Partial<TaskRow>,
  versions: Versions | undefined,
  rewriteCompleted: boolean,
): Promise<Outcome<TaskChange>> {
  const scope = scopeOf(caller);
  const { db, account } = scope;
  const own = ownLiveTaskIn(account, id);
  const read = db.select().from(tasks).where(own);
  // A patch that clears `repeat` never starts an occurrence; one that sets it may start a series, so
  // that completion always takes completeRow's path.
  const noNextOccurrence =
    set.repeat === null
      ? sql`1`
      : set.repeat !== undefined
        ? undefined
        : rewriteCompleted
          ? or(eq(tasks.completed, true), isNull(tasks.repeat))
          : and(eq(tasks.completed, false), isNull(tasks.repeat));
  const statements = noNextOccurrence
    ? [
        db
          .update(tasks)
          .set({ ...set, updatedAt: bumpedUpdatedAt })
          .where(and(own, noNextOccurrence, versionCondition(versions)))
          .returning(),
        read,
      ]
    : [read];
  const { actor, auth, results } = await scope.run(statements);
  const [updated] = (noNextOccurrence ? results[0] : []) as TaskRow[];
  if (updated) return { value: { task: toTask(updated) }, auth };
  const [current] = results[results.length - 1] as TaskRow[];
  if (!current) throw notFound();
  return { value: await completeRow({ db, actor }, id, set, versions, rewriteCompleted, current), auth };
}

const MAX_ATTEMPTS = 3;

/**
 * Completing a completed task changes nothing; when its completion created a next occurrence that
 * still exists, the retry returns it again, so a client that lost the first answer still learns it.
 */
async function retriedCompletion(ctx: ServiceContext, row: TaskRow): Promise<TaskChange> {
  if (!row.nextId) return { task: toTask(row) };
  const [next] = await ctx.db.select().from(tasks).where(ownLiveTask(ctx, row.nextId));
  return next ? { task: toTask(row), next: toTask(next) } : { task: toTask(row) };
}

/**
 * Completion, in one atomic batch guarded by the `updatedAt` that was read: the next occurrence
 * (if the task repeats and its rule is not exhausted) is inserted and the task is marked completed
 * with its `repeat` cleared, so reopening and completing it again cannot spawn a second one.
 * If the task changed between read and write, nothing is written and the read is retried.
 */
async function completeRow(
  ctx: ServiceContext,
  id: string,
  set: Partial<TaskRow>,
  versions: Versions | undefined,
  rewriteCompleted: boolean,
  /** The task as the caller's batch just read it: the first attempt starts from it. */
  current: TaskRow,
): Promise<TaskChange> {
  const { db } = ctx;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = attempt === 0 ? current : await readTask(ctx, id);
    if (versions && !matchesVersions(versions, row.updatedAt)) throw stale();
    if (row.completed && !rewriteCompleted) return retriedCompletion(ctx, row);
    const merged = { ...row, ...set };
    const repeating = !row.completed && merged.repeat;
    const upcoming = repeating
      ? nextOccurrence({ ...merged, repeat: repeating }, ctx.actor.timeZone, new Date())
      : null;
    const guard = and(ownLiveTask(ctx, id), eq(tasks.updatedAt, row.updatedAt));
    const nextId = newId();
    const update = db
      .update(tasks)
      .set({
        ...set,
        ...(repeating ? { repeat: null } : {}),
        ...(upcoming ? { nextId } : {}),
        updatedAt: bumpedUpdatedAt,
      })
      .where(guard)
      .returning();
    if (!upcoming) {
      const [updated] = await update;
      if (updated) return { task: toTask(updated) };
      if (versions) throw stale();
      continue;
    }
    // The insert comes first and is guarded by the same condition, so both see the same row.
    const [[next], [updated]] = await db.batch([
      db
        .insert(tasks)
        .select(
          sql`SELECT ${nextId}, ${ctx.actor.accountId}, ${merged.title}, ${merged.notes}, ${merged.listId}, ${upcoming.due},
                     ${upcoming.reminder ?? null}, ${upcoming.repeat}, ${merged.important ? 1 : 0}, 0, ${nowSql}, ${nowSql}, NULL, NULL
              WHERE EXISTS (SELECT 1 FROM ${tasks} WHERE ${guard})`,
        )
        .returning(),
      update,
    ]);
    if (updated) return next ? { task: toTask(updated), next: toTask(next) } : { task: toTask(updated) };
    if (versions) throw stale();
  }
  throw new AppError("unavailable", "The task kept changing while it was being completed. Retry.", undefined, 1);
}

/** Deletes a task, leaving a tombstone so `since` syncs learn about it. With `ifMatch`, a stale ETag is 412. */
export async function deleteTaskAs(caller: Caller, id: string, options: WriteOptions = {}): Promise<Outcome<void>> {
  const versions = options.ifMatch === undefined ? undefined : versionsIn(options.ifMatch, id);
  const { db, account, verdict, run } = scopeOf(caller);
  const condition = versionCondition(versions);
  const deletion = db
    .update(tasks)
    .set({ deletedAt: nowSql, updatedAt: bumpedUpdatedAt })
    .where(and(ownLiveTaskIn(account, id), condition))
    .returning(verdict ? { id: tasks.id, verdict: sql<string | null>`${verdict}`.as("verdict") } : { id: tasks.id });
  // As for a PATCH: the existence check that tells 412 from 404 only when a version guards the deletion.
  const existence = db.select({ id: tasks.id }).from(tasks).where(ownLiveTaskIn(account, id));
  const { auth, results } = await run(condition ? [deletion, existence] : [deletion], { verdictIn: "rows" });
  const [deleted, [current] = []] = results as [{ id: string }[], { id: string }[]?];
  if (deleted.length === 0) throw current ? stale() : notFound();
  return { value: undefined, auth };
}
