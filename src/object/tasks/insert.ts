import { tasks, type TaskRow } from "../schema";
import type { AccountContext } from "../context";
import { newId } from "../../domain/ids";
import { resolveListId } from "../lists/names";
import { lastPosition } from "./position";
import type { RowValues } from "./row";

/** A task's `listId` as the list it means (lists/names.ts): an id, or a list's name. */
export function withResolvedList(ctx: AccountContext, values: RowValues): RowValues {
  return typeof values.listId === "string" ? { ...values, listId: resolveListId(ctx.db, values.listId) } : values;
}

/**
 * The one way a task is inserted (create, idempotent create, the next occurrence, copied subtasks): a
 * new id, the columns given, last among its siblings unless a position is given, every other column
 * its declared default.
 */
export function insertTask(ctx: AccountContext, values: RowValues): TaskRow {
  const resolved = withResolvedList(ctx, values) as typeof tasks.$inferInsert;
  const position = resolved.position || lastPosition(ctx.db, resolved.listId ?? null, resolved.parentId ?? null);
  return ctx.db
    .insert(tasks)
    .values({ ...resolved, position, id: newId() })
    .returning()
    .get();
}
