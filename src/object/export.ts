import { and, asc, gt, isNull } from "drizzle-orm";
import type { AccountDb } from "./context";
import { toTask } from "./tasks/row";
import { labels, lists, tasks } from "./schema";

/**
 * Tasks per export page: one call to the object each. A page is typically 50 KB, and it ends early
 * once its JSON passes EXPORT_PAGE_BYTES, so that no page nears the 32 MiB a call to an object can
 * carry (250 tasks of the longest notes, written as escapes, would be about 60 MB).
 */
export const EXPORT_PAGE_SIZE = 250;
export const EXPORT_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * One page of the account's live tasks after `afterId` (id order, which edits do not move), each as
 * its JSON text: the API's Task plus `createdAt`. Tombstones are not the person's data any more.
 */
export function exportTaskPage(db: AccountDb, afterId: string): { ids: string[]; json: string[]; more: boolean } {
  const rows = db
    .select()
    .from(tasks)
    .where(and(isNull(tasks.deletedAt), gt(tasks.id, afterId)))
    .orderBy(asc(tasks.id))
    .limit(EXPORT_PAGE_SIZE)
    .all();
  const page = { ids: [] as string[], json: [] as string[], more: false };
  let bytes = 0;
  for (const row of rows) {
    const json = JSON.stringify({ ...toTask(row), createdAt: row.createdAt });
    page.ids.push(row.id);
    page.json.push(json);
    bytes += json.length;
    if (bytes >= EXPORT_PAGE_BYTES) break;
  }
  page.more = rows.length === EXPORT_PAGE_SIZE || page.ids.length < rows.length;
  return page;
}

/** The live lists by name; their counts are not data, they follow from the tasks. */
export const exportLists = (db: AccountDb) =>
  db
    .select({ id: lists.id, name: lists.name, createdAt: lists.createdAt, updatedAt: lists.updatedAt })
    .from(lists)
    .where(isNull(lists.deletedAt))
    .orderBy(asc(lists.nameKey), asc(lists.id))
    .all();

/** The labels by name, with their colours; which tasks carry them is in each task's `labels`. */
export const exportLabels = (db: AccountDb) =>
  db
    .select({
      id: labels.id,
      name: labels.name,
      color: labels.color,
      createdAt: labels.createdAt,
      updatedAt: labels.updatedAt,
    })
    .from(labels)
    .orderBy(asc(labels.nameKey))
    .all()
    .map(({ color, ...label }) => (color ? { ...label, color } : label));
