import { and, eq, isNull, ne, or } from "drizzle-orm";
import { closestNames, looseKeyOf, nameKeyOf } from "../../domain/lists/names";
import type { ListCreated } from "../../domain/lists/notice";
import type { AccountDb } from "../context";
import { lists } from "../schema";

const liveLists = (db: AccountDb) =>
  db.select({ id: lists.id, name: lists.name }).from(lists).where(isNull(lists.deletedAt)).all();

/**
 * The list a task's `listId` means. A live list with that id; else a live list with that name
 * (ignoring case), because models and people often pass "Groceries" where the id is a UUID; else one
 * whose name matches ignoring case, spaces, dashes and underscores; else the id itself, and writing the
 * task creates a list of that id (migration 0001's trigger), which the write then reports (`listCreated`).
 */
export function resolveListId(db: AccountDb, listId: string): string {
  const found = db
    .select({ id: lists.id, nameKey: lists.nameKey })
    .from(lists)
    .where(and(isNull(lists.deletedAt), or(eq(lists.id, listId), eq(lists.nameKey, nameKeyOf(listId)))))
    .all();
  const exact = (found.find((list) => list.id === listId) ?? found[0])?.id;
  if (exact !== undefined) return exact;
  const loose = looseKeyOf(listId);
  return liveLists(db).find((list) => looseKeyOf(list.name) === loose)?.id ?? listId;
}

/** Whether a live list has this id or this name: a listing filtered by an unknown list says so. */
export const knownList = (db: AccountDb, listId: string) => resolveListId(db, listId) !== listId || hasList(db, listId);

export const hasList = (db: AccountDb, id: string) =>
  db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.id, id), isNull(lists.deletedAt)))
    .get() !== undefined;

/**
 * The names of the live lists (other than `except`) closest to `name`, closest first, at most 3: one
 * contains the other, or at most a third of the letters differ ("grocery" and "Groceries").
 */
export function closestListNames(db: AccountDb, name: string, except?: string): string[] {
  const names = db
    .select({ name: lists.name })
    .from(lists)
    .where(and(isNull(lists.deletedAt), except ? ne(lists.id, except) : undefined))
    .all()
    .map((list) => list.name);
  return closestNames(name, names);
}

/** The list a write just created for `listId` (the trigger named it), with the closest existing names. */
export function listCreated(db: AccountDb, listId: string): ListCreated {
  const row = db.select({ name: lists.name }).from(lists).where(eq(lists.id, listId)).get();
  const name = row?.name ?? listId;
  return { id: listId, name, closest: closestListNames(db, name, listId) };
}
