import { tasks, type TaskRow } from "../schema";
import type { AccountContext } from "../context";
import { newId } from "../../domain/ids";
import { AppError } from "../../domain/errors";
import { LIST_ID_PATTERN } from "../../domain/tasks/values";
import { withResolvedLabels } from "../labels/names";
import { hasList, resolveListId } from "../lists/names";
import { lastPosition } from "./position";
import type { RowValues } from "./row";

/**
 * A task's `listId` as the list it means (lists/names.ts): an id, or a list's name. One that means no list
 * creates a list of that id, so it must be one: a name that matches nothing is refused.
 */
export function withResolvedList(ctx: AccountContext, values: RowValues): RowValues {
  if (typeof values.listId !== "string") return values;
  const listId = resolveListId(ctx.db, values.listId);
  if (listId === values.listId && !LIST_ID_PATTERN.test(listId) && !hasList(ctx.db, listId)) {
    const message = `no list has this id or name ("${listId}"), and a new list's id holds only A-Z, a-z, 0-9, _ and -: create the list first (POST /api/v1/lists, create_list), or use an existing list's name`;
    throw new AppError("validation_failed", `Invalid listId: ${message}`, [{ path: "listId", message }]);
  }
  return { ...values, listId };
}

/**
 * The one way a task is inserted (create, idempotent create, the next occurrence, copied subtasks): a
 * new id, the columns given (its list and labels as they resolve), last among its siblings unless a
 * position is given, every other column its declared default.
 */
export function insertTask(ctx: AccountContext, values: RowValues): TaskRow {
  const resolved = withResolvedLabels(ctx, withResolvedList(ctx, values)) as typeof tasks.$inferInsert;
  const position = resolved.position || lastPosition(ctx.db, resolved.listId ?? null, resolved.parentId ?? null);
  return ctx.db
    .insert(tasks)
    .values({ ...resolved, position, id: newId() })
    .returning()
    .get();
}
