import { and, eq, lte, sql } from "drizzle-orm";
import { idempotencyKeys, nowSql, tasks, type TaskRow } from "../../db/schema";
import { type Caller, type Outcome, resolveCaller, scopeOf } from "./caller";
import { randomBase62, sha256Hex } from "../crypto";
import { AppError } from "../errors";
import { IDEMPOTENCY_HOURS } from "../retention";
import { toTask } from "./mapping";
import { IdempotencyKey, type Task, type TaskInput } from "./schemas";

/** The same input always hashes the same, whatever the order of its properties. */
const canonicalJson = (input: TaskInput) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(input)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

/** A task row as SQLite JSON, so the stored response is exactly what the first request returned. */
const rowJson =
  sql.raw(`json_object('id', id, 'accountId', account_id, 'title', title, 'notes', notes, 'listId', list_id,
  'due', due, 'reminder', reminder, 'repeat', repeat, 'important', important, 'completed', completed,
  'createdAt', created_at, 'updatedAt', updated_at, 'deletedAt', deleted_at)`);

const fromJson = (json: string): TaskRow => {
  const row = JSON.parse(json) as TaskRow;
  return { ...row, important: !!row.important, completed: !!row.completed };
};

/**
 * Creates a task at most once per (account, key) within 24 hours. One batch claims the key,
 * inserts the task only if this request's claim won, and stores the created row: D1 runs a batch
 * as one transaction, so of N parallel duplicates exactly one creates and the others replay.
 * For an API key, the key lookup rides in the same batch and every statement is scoped by the
 * key's account (NULL for a refused key: nothing is claimed or written), so it is one round trip.
 */
export async function createTaskOnce(
  caller: Caller,
  values: {
    id: string;
    title: string;
    notes: string | null;
    listId: string | null;
    due: string | null;
    reminder: string | null;
    repeat: string | null;
    important: boolean;
  },
  input: TaskInput,
  key: string,
): Promise<Outcome<{ task: Task; replayed: boolean }>> {
  const parsed = IdempotencyKey.safeParse(key);
  if (!parsed.success) {
    // Credentials are judged before input: only a request that fails here pays a lookup of its own.
    await resolveCaller(caller);
    throw new AppError("validation_failed", "Invalid idempotency key.", [
      { path: "idempotencyKey", message: parsed.error.issues[0]!.message },
    ]);
  }
  const { db, account, run } = scopeOf(caller);
  const requestHash = await sha256Hex(canonicalJson(input));
  const claim = randomBase62(22);
  const thisKey = and(eq(idempotencyKeys.accountId, account), eq(idempotencyKeys.key, key));
  const ours = and(thisKey, eq(idempotencyKeys.claim, claim));
  const expiresAt = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`+${IDEMPOTENCY_HOURS} hours`})`;
  const { auth, results } = await run([
    db.delete(idempotencyKeys).where(and(thisKey, lte(idempotencyKeys.expiresAt, nowSql))),
    db
      .insert(idempotencyKeys)
      .select(
        sql`SELECT owner.id, ${key}, ${requestHash}, ${claim}, ${values.id}, NULL, ${nowSql}, ${expiresAt}
            FROM (SELECT ${account} AS id) owner WHERE owner.id IS NOT NULL`,
      )
      .onConflictDoNothing(),
    db.insert(tasks).select(
      sql`SELECT ${values.id}, owner.id, ${values.title}, ${values.notes}, ${values.listId}, ${values.due},
                   ${values.reminder}, ${values.repeat}, ${values.important ? 1 : 0}, 0, ${nowSql}, ${nowSql}, NULL, NULL
            FROM (SELECT ${account} AS id) owner WHERE EXISTS (SELECT 1 FROM ${idempotencyKeys} WHERE ${ours})`,
    ),
    db
      .update(idempotencyKeys)
      .set({ response: sql`(SELECT ${rowJson} FROM ${tasks} WHERE ${tasks.id} = ${values.id})` })
      .where(ours),
    db.select().from(idempotencyKeys).where(thisKey),
  ]);
  const [record] = results[4] as (typeof idempotencyKeys.$inferSelect)[];
  if (!record) throw new AppError("internal", "The idempotency record vanished.");
  if (record.requestHash !== requestHash) {
    throw new AppError(
      "idempotency_key_reused",
      "This idempotency key was already used with a different request body in the last 24 hours. Use a new key for a new request.",
    );
  }
  if (!record.response) {
    throw new AppError(
      "idempotency_in_progress",
      "A request with this idempotency key is still being processed. Retry shortly.",
      undefined,
      1,
    );
  }
  return { value: { task: toTask(fromJson(record.response)), replayed: record.claim !== claim }, auth };
}
