import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { taskJsonSql } from "./row";

/**
 * Listings too large for one SQLite value. A listing is normally one JSON text built by one
 * aggregate (row.ts, `taskArraySql`): one statement, one round trip. SQLite refuses a value over
 * its length limit (SQLITE_TOOBIG: 2,000,000 bytes on D1, about 8 MiB in local workerd), and with
 * notes of up to 20,000 code points, a task lists as up to about 123 KB of JSON (six bytes for a
 * control character's `\u0001`): about 16 such tasks fill D1's limit.
 *
 * When the aggregate fails with TOOBIG, the listing runs again in chunks (list.ts,
 * `listTasksAs`): the same statement with its JSON left out, which still carries the count, the
 * cursor, the clock and the key's verdict, and beside it in the same batch a statement that yields
 * the tasks' JSON in rows of about CHUNK_BYTES each, split by a running sum of their lengths.
 * A chunk holds under CHUNK_BYTES plus one task, far below the limit, so every account lists,
 * however its notes are sized. It costs a second round trip, and only for such accounts; the
 * chunks are joined as they come, in order.
 */
export const CHUNK_BYTES = 1_000_000;

/** A source of task rows: the table, or a subquery with the task columns (a page's ranked rows). */
type Rows = Parameters<ReturnType<Db["select"]>["from"]>[0];

/**
 * The tasks' JSON (taskJsonSql) in chunk rows, in `order`: each row's `json` is a comma-separated
 * run of task objects, ready to join with commas and wrap in brackets.
 */
export function chunkQuery(db: Db, rows: Rows, where: SQL | undefined, order: SQL) {
  const tasks = db
    .select({
      json: sql<string>`${taskJsonSql}`.as("json"),
      position: sql<number>`row_number() OVER (ORDER BY ${order})`.as("position"),
    })
    .from(rows)
    .where(where)
    .as("listed");
  // Bytes before each task, divided by CHUNK_BYTES: the chunk it starts in.
  const chunk = sql<number>`(sum(octet_length(${tasks.json})) OVER (ORDER BY ${tasks.position}) - octet_length(${tasks.json})) / ${sql.raw(String(CHUNK_BYTES))}`;
  const placed = db
    .select({ json: tasks.json, position: tasks.position, chunk: chunk.as("chunk") })
    .from(tasks)
    .as("placed");
  return db
    .select({ json: sql<string>`group_concat(${placed.json}, ',' ORDER BY ${placed.position})`.as("json") })
    .from(placed)
    .groupBy(sql`${placed.chunk}`)
    .orderBy(sql`${placed.chunk}`);
}

/** The JSON array text of the chunk rows, in their order; `[]` for none. */
export const joinChunks = (rows: { json: string }[]) => `[${rows.map((row) => row.json).join(",")}]`;
