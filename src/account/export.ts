import { and, asc, gt, isNull } from "drizzle-orm";
import type { AccountDb } from "../domain/context";
import { toTask } from "../domain/tasks/row";
import { lists, tasks } from "./schema";

/**
 * Tasks per export page: one call to the object each. A page is typically 50 KB; its worst case (every
 * task at the 20,000-code-point note limit) is about 25 MB, which fits the isolate's 128 MB.
 */
export const EXPORT_PAGE_SIZE = 250;

/**
 * One page of the account's live tasks after `afterId` (id order, which edits do not move), each as
 * its JSON text: the API's Task plus `createdAt`. Tombstones are not the person's data any more.
 */
export function exportTaskPage(db: AccountDb, afterId: string): { ids: string[]; json: string[] } {
  const rows = db
    .select()
    .from(tasks)
    .where(and(isNull(tasks.deletedAt), gt(tasks.id, afterId)))
    .orderBy(asc(tasks.id))
    .limit(EXPORT_PAGE_SIZE)
    .all();
  return {
    ids: rows.map((row) => row.id),
    json: rows.map((row) => JSON.stringify({ ...toTask(row), createdAt: row.createdAt })),
  };
}

/** The live lists by name; their counts are not data, they follow from the tasks. */
export const exportLists = (db: AccountDb) =>
  db
    .select({ id: lists.id, name: lists.name, createdAt: lists.createdAt, updatedAt: lists.updatedAt })
    .from(lists)
    .where(isNull(lists.deletedAt))
    .orderBy(asc(lists.nameKey), asc(lists.id))
    .all();
