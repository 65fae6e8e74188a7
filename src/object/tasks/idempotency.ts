import { and, eq, lte } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { idempotencyKeys, type TaskRow } from "../schema";
import type { AccountContext } from "../context";
import { sha256Hex } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { IDEMPOTENCY_HOURS } from "../retention";
import { toTask } from "./row";
import type { TaskInput, TaskTree } from "../../domain/tasks/schemas";
import { IdempotencyKey } from "../../domain/tasks/values";
import type { WriteNotice } from "../../domain/lists/notice";
import type { Cascaded } from "./live";

/** A new task (with its subtasks, given any), what it changed in its tree, and a list it created (create.ts). */
export interface Created {
  row: TaskRow;
  task: TaskTree;
  cascade?: Cascaded[];
  notice?: WriteNotice;
}

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
 * The SHA-256 of the canonical input, for a create with an idempotency key: WebCrypto's is
 * asynchronous, so the account's object computes it before the verb's transaction (`prepare` in
 * account/verbs/create-task.ts).
 * (node:crypto's synchronous digest would have loaded Node's crypto layer into every isolate's start-up.)
 */
export async function withRequestHash<A extends { input: TaskInput; idempotencyKey?: string }>(
  args: A,
): Promise<A & { requestHash?: string }> {
  return args.idempotencyKey === undefined
    ? args
    : { ...args, requestHash: await sha256Hex(canonicalJson(args.input)) };
}

/**
 * Creates a task at most once per idempotency key within 24 hours. The record and the task are
 * written in the object's one transaction, and the object runs one request at a time, so of N
 * duplicates exactly one creates and the others replay the stored row.
 */
export function createTaskOnce(
  ctx: AccountContext,
  key: string,
  requestHash: string | undefined,
  create: () => Created,
): Omit<Created, "row"> & { replayed: boolean } {
  const parsed = IdempotencyKey.safeParse(key);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Invalid idempotency key.", [
      { path: "idempotencyKey", message: parsed.error.issues[0]!.message },
    ]);
  }
  if (!requestHash) throw new AppError("internal", "An idempotent create reached the store without its request hash.");
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
    // The row as stored, and the subtasks created with it as they were answered (none before subtasks).
    const { subtasks, ...row } = JSON.parse(record.response) as TaskRow & { subtasks?: TaskTree[] };
    const task: TaskTree = toTask(row);
    return { task: subtasks ? { ...task, subtasks } : task, replayed: true };
  }
  const { row, ...created } = create();
  db.insert(idempotencyKeys)
    .values({
      key,
      requestHash,
      taskId: row.id,
      response: JSON.stringify(created.task.subtasks ? { ...row, subtasks: created.task.subtasks } : row),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_HOURS * 3_600_000).toISOString(),
    })
    .run();
  return { ...created, replayed: false };
}
