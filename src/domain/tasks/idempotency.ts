import { createHash } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import { nowSql } from "../../db/clock";
import { idempotencyKeys, type TaskRow } from "../../account/schema";
import type { AccountContext } from "../context";
import { AppError } from "../errors";
import { IDEMPOTENCY_HOURS } from "../retention";
import { type RowValues, toTask } from "./row";
import type { Task, TaskInput } from "./schemas";
import { IdempotencyKey } from "./values";
import { insertTask } from "./insert";

/** The same input always hashes the same, whatever the order of its properties. */
const canonicalJson = (input: TaskInput) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(input)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

/**
 * Creates a task at most once per idempotency key within 24 hours. The record and the task are
 * written in the object's one transaction, and the object runs one request at a time, so of N
 * duplicates exactly one creates and the others replay the stored row.
 */
export function createTaskOnce(
  ctx: AccountContext,
  values: RowValues,
  input: TaskInput,
  key: string,
): { task: Task; replayed: boolean } {
  const parsed = IdempotencyKey.safeParse(key);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Invalid idempotency key.", [
      { path: "idempotencyKey", message: parsed.error.issues[0]!.message },
    ]);
  }
  const requestHash = createHash("sha256").update(canonicalJson(input)).digest("hex");
  const { db } = ctx;
  db.delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.key, key), lte(idempotencyKeys.expiresAt, nowSql)))
    .run();
  const record = db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get();
  if (record) {
    if (record.requestHash !== requestHash) {
      throw new AppError(
        "idempotency_key_reused",
        "This idempotency key was already used with a different request body in the last 24 hours. Use a new key for a new request.",
      );
    }
    return { task: toTask(JSON.parse(record.response) as TaskRow), replayed: true };
  }
  const row = insertTask(ctx, values);
  db.insert(idempotencyKeys)
    .values({
      key,
      requestHash,
      taskId: row.id,
      response: JSON.stringify(row),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_HOURS * 3_600_000).toISOString(),
    })
    .run();
  return { task: toTask(row), replayed: false };
}
