import { tasks, type TaskRow } from "../schema";
import type { AccountContext } from "../context";
import { newId } from "../../domain/ids";
import { withResolvedLabels } from "../labels/names";
import { resolveListId } from "../lists/names";
import type { RowValues } from "./row";

/** A task's `listId` as the list it means (lists/names.ts): an id, or a list's name. */
export function withResolvedList(ctx: AccountContext, values: RowValues): RowValues {
  return typeof values.listId === "string" ? { ...values, listId: resolveListId(ctx.db, values.listId) } : values;
}

/**
 * The one way a task is inserted (create, idempotent create, the next occurrence): a new id, the
 * columns given (its list and labels as they resolve), every other column its declared default.
 */
export function insertTask(ctx: AccountContext, values: RowValues): TaskRow {
  return ctx.db
    .insert(tasks)
    .values({ ...(withResolvedLabels(ctx, withResolvedList(ctx, values)) as typeof tasks.$inferInsert), id: newId() })
    .returning()
    .get();
}
