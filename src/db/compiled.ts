import { fillPlaceholders, type Placeholder, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/** The parts of a Drizzle prepared query that `db.batch()` uses (drizzle-orm/d1/session.js, `batch`). */
interface PreparedQuery {
  getQuery(): { sql: string; params: unknown[] };
  stmt: D1PreparedStatement;
  mapResult(result: unknown, isFromBatch?: boolean): unknown;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

export type Placeholders<V> = { [K in keyof V]-?: Placeholder<K & string> };

/**
 * A Drizzle query compiled to SQL once per isolate; every use only binds its values. Building a
 * query (Drizzle's `is()` checks and SQL assembly) was the largest piece of a task request's CPU
 * after the database itself, and the hot statements have a fixed shape, so they are built once with
 * `sql.placeholder`s and the values filled in per request. The result is mapped by Drizzle as before.
 *
 * `build` gets placeholders in place of the values; values must be in their driver form (SQLite
 * integers for booleans), since placeholders skip Drizzle's column encoders.
 *
 * Each placeholder is `(SELECT ?)`, not a bare `?`. SQLite (3.51, the version D1 and workerd run) looks
 * at a bare parameter's bound value when it plans certain statements (equality in a join, `LIMIT ?` or
 * a filter inside a subquery in FROM) and then throws the cached plan away whenever the value changes:
 * a full re-parse on every request (sqlite3Reprepare, ~170 µs for a page of the listing, measured with
 * perf on workerd). A scalar subquery is opaque to that, is evaluated once per statement, and still
 * lets the planner use the index it compares with.
 */
export function compiled<V extends Record<string, unknown>>(
  build: (db: Db, values: Placeholders<V>) => { prepare(): unknown },
) {
  // One prepared query per Drizzle instance, that is per D1 binding (see client.ts).
  const prepared = new WeakMap<Db, PreparedQuery>();
  const preparedFor = (db: Db) => {
    let query = prepared.get(db);
    if (!query) {
      const placeholders = new Proxy(
        {},
        { get: (_, name) => sql`(SELECT ${sql.placeholder(String(name))})` },
      ) as unknown as Placeholders<V>;
      query = build(db, placeholders).prepare() as PreparedQuery;
      prepared.set(db, query);
    }
    return query;
  };
  return {
    /** The query with these values, as an item of `db.batch()`. */
    with(db: Db, values: V): BatchItem<"sqlite"> {
      const query = preparedFor(db);
      const { sql: text, params } = query.getQuery();
      const bound = {
        getQuery: () => ({ sql: text, params: fillPlaceholders(params, values) }),
        stmt: query.stmt,
        mapResult: (result: unknown, isFromBatch?: boolean) => query.mapResult(result, isFromBatch),
      };
      // db.batch() calls `_prepare()` on each item and uses exactly these three members.
      return { _prepare: () => bound } as unknown as BatchItem<"sqlite">;
    },
    /** Runs the query on its own. */
    run(db: Db, values: V): Promise<unknown> {
      return preparedFor(db).execute(values);
    },
  };
}
