import { and, eq, lte, sql } from "drizzle-orm";
import { nowSql } from "../../db/clock";
import { selectRow } from "../../db/row-select";
import { idempotencyKeys, tasks, type TaskRow } from "../../db/schema";
import { randomBase62, sha256Hex } from "../crypto";
import { AppError } from "../errors";
import { IDEMPOTENCY_HOURS } from "../retention";
import { newTaskRow, type RowValues, rowFromJson, rowJsonSql, toTask } from "./row";
import type { Task, TaskInput } from "./schemas";
import { type Caller, judge, type CallerScope, taskStatement, type Outcome, runBehindLookup } from "./statements";
import { IdempotencyKey } from "./values";

/** The same input always hashes the same, whatever the order of its properties. */
const canonicalJson = (input: TaskInput) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(input)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

type ClaimValues = { key: string; claim: string; requestHash: string; id: string };
type Scope = CallerScope<ClaimValues>;
const thisKey = ({ account, values }: Scope) =>
  and(eq(idempotencyKeys.accountId, account), eq(idempotencyKeys.key, values.key));
const ours = (scope: Scope) => and(thisKey(scope), eq(idempotencyKeys.claim, scope.values.claim));

const expireKey = taskStatement((scope: Scope) =>
  scope.db.delete(idempotencyKeys).where(and(thisKey(scope), lte(idempotencyKeys.expiresAt, nowSql))),
);

const claimKey = taskStatement(({ db, account, values: v }: Scope) =>
  db
    .insert(idempotencyKeys)
    .select(
      sql`SELECT ${selectRow(idempotencyKeys, {
        accountId: sql`owner.id`,
        key: v.key,
        requestHash: v.requestHash,
        claim: v.claim,
        taskId: v.id,
        expiresAt: sql.raw(`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+${IDEMPOTENCY_HOURS} hours')`),
      })}
          FROM (SELECT ${account} AS id) owner WHERE owner.id IS NOT NULL`,
    )
    .onConflictDoNothing(),
);

/** The task, inserted only if this request's claim won: the same new row as an ordinary create. */
const insertClaimed = taskStatement((scope: CallerScope<ClaimValues & RowValues>, columns: string[]) =>
  scope.db
    .insert(tasks)
    .select(
      newTaskRow(scope, columns, scope.values.id, sql`EXISTS (SELECT 1 FROM ${idempotencyKeys} WHERE ${ours(scope)})`),
    ),
);

const storeResponse = taskStatement((scope: Scope) =>
  scope.db
    .update(idempotencyKeys)
    .set({ response: sql`(SELECT ${rowJsonSql} FROM ${tasks} WHERE ${tasks.id} = ${scope.values.id})` })
    .where(ours(scope)),
);

const readRecord = taskStatement((scope: Scope) => scope.db.select().from(idempotencyKeys).where(thisKey(scope)));

/**
 * Creates a task at most once per (account, key) within 24 hours. One batch claims the key,
 * inserts the task only if this request's claim won, and stores the created row: D1 runs a batch
 * as one transaction, so of N parallel duplicates exactly one creates and the others replay.
 * The key lookup rides in the same batch and every statement is scoped by the key's account (NULL
 * for a refused key: nothing is claimed or written), so it is one round trip.
 */
export async function createTaskOnce(
  caller: Caller,
  values: RowValues & { id: string },
  input: TaskInput,
  key: string,
): Promise<Outcome<{ task: Task; replayed: boolean }>> {
  const parsed = IdempotencyKey.safeParse(key);
  if (!parsed.success) {
    // Credentials are judged before input: only a request that fails here pays a lookup of its own.
    await judge(caller);
    throw new AppError("validation_failed", "Invalid idempotency key.", [
      { path: "idempotencyKey", message: parsed.error.issues[0]!.message },
    ]);
  }
  const claim: ClaimValues = {
    key,
    claim: randomBase62(22),
    requestHash: await sha256Hex(canonicalJson(input)),
    id: values.id,
  };
  const { auth, results } = await runBehindLookup(caller, [
    expireKey(caller, null, claim),
    claimKey(caller, null, claim),
    insertClaimed(caller, Object.keys(values), { ...values, ...claim }),
    storeResponse(caller, null, claim),
    readRecord(caller, null, claim),
  ]);
  const [record] = results[4] as (typeof idempotencyKeys.$inferSelect)[];
  if (!record) throw new AppError("internal", "The idempotency record vanished.");
  if (record.requestHash !== claim.requestHash) {
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
  const task: TaskRow = rowFromJson(record.response);
  return { value: { task: toTask(task), replayed: record.claim !== claim.claim }, auth };
}
