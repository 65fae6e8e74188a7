import { AppError } from "../../domain/errors";
import type { AccountDb } from "../context";
import type { TaskRow } from "../schema";
import { lastPosition, neighbourOf, positionNextTo } from "./position";
import type { RowValues } from "./row";
import { heightOf, parentFor } from "./tree";

/**
 * The one placement rule of a move (POST /tasks/{id}/move) and of an update that names a list, a parent,
 * `before` or `after`. `before`/`after` put the task next to that sibling: in its list, under its parent.
 * A new parent brings its list. A new list alone takes a subtask out of its parent, to the top level of
 * that list. A new list or parent puts it last there. The answer is the columns that change, nothing
 * when it stays where it is.
 */
export interface Place {
  /** Resolved already (lists/names.ts); null: in no list. */
  listId?: string | null;
  /** null: the top level. */
  parentId?: string | null;
  before?: string;
  after?: string;
}

const refuse = (path: string, message: string) =>
  new AppError("validation_failed", `Invalid ${path}: ${message}`, [{ path, message }]);

export function placement(db: AccountDb, row: TaskRow, place: Place): RowValues {
  if (place.before !== undefined && place.after !== undefined)
    throw refuse("after", "send either before or after, not both");
  const side = place.before !== undefined ? "before" : place.after !== undefined ? "after" : undefined;
  const sibling = side ? neighbourOf(db, place[side]!, side, row.id) : undefined;
  if (sibling && place.parentId !== undefined && place.parentId !== sibling.parentId)
    throw refuse("parentId", `the task named by ${side} has another parent; send one of the two`);

  const parentId =
    sibling !== undefined
      ? sibling.parentId
      : place.parentId !== undefined
        ? place.parentId
        : place.listId !== undefined && place.listId !== row.listId
          ? null
          : row.parentId;
  const parent =
    parentId !== null && (parentId !== row.parentId || place.listId !== undefined)
      ? parentFor(db, parentId, heightOf(db, row.id), row.id)
      : undefined;
  // A subtask shares its parent's list; a top-level task placed next to another shares that one's.
  const listId = parent
    ? parent.listId
    : sibling
      ? sibling.listId
      : place.listId !== undefined
        ? place.listId
        : row.listId;
  if (place.listId !== undefined && place.listId !== listId)
    throw refuse(
      "listId",
      "a subtask is always in its parent's list, and a task placed before or after another in that one's: leave listId out",
    );

  const position = sibling
    ? positionNextTo(db, sibling, side!, row.id)
    : listId !== row.listId || parentId !== row.parentId
      ? lastPosition(db, listId, parentId, row.id)
      : undefined;
  const changes: RowValues = {};
  if (listId !== row.listId) changes.listId = listId;
  if (parentId !== row.parentId) changes.parentId = parentId;
  if (position !== undefined && position !== row.position) changes.position = position;
  return changes;
}
