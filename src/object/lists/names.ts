import { and, eq, isNull, or } from "drizzle-orm";
import { lists } from "../schema";
import type { AccountDb } from "../context";

/** Names are unique per account ignoring case: NFC, then upper- and lower-cased, so "ß" matches "SS". */
export const nameKeyOf = (name: string) => name.normalize("NFC").toUpperCase().toLowerCase();

/**
 * The list a task's `listId` means. A live list with that id; else a live list with that name
 * (ignoring case), because models and people often pass "Groceries" where the id is a UUID; else the
 * id itself, and writing the task creates a list of that id (migration 0001's trigger).
 */
export function resolveListId(db: AccountDb, listId: string): string {
  const found = db
    .select({ id: lists.id, nameKey: lists.nameKey })
    .from(lists)
    .where(and(isNull(lists.deletedAt), or(eq(lists.id, listId), eq(lists.nameKey, nameKeyOf(listId)))))
    .all();
  return (found.find((list) => list.id === listId) ?? found[0])?.id ?? listId;
}

/** Whether a live list has this id or this name: a listing filtered by an unknown list says so. */
export const knownList = (db: AccountDb, listId: string) => resolveListId(db, listId) !== listId || hasList(db, listId);

const hasList = (db: AccountDb, id: string) =>
  db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.id, id), isNull(lists.deletedAt)))
    .get() !== undefined;
