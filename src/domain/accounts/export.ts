import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { listApiKeys } from "../api-keys/service";
import { lists } from "../../db/schema";
import { exportConnections } from "../connections/service";
import { AppError } from "../errors";
import { taskJsonSql } from "../tasks/row";
import { getAccount } from "./service";
import { listSessions } from "./sessions";

/**
 * The account's data as one JSON document (GDPR art. 15 and 20), built to be streamed: the small
 * head (account, membership, keys, sessions, connections) is read at once, the tasks page by page, so memory
 * holds one page, never the whole account. docs/scaling.md has the measurements.
 */
export const EXPORT_FORMAT = "todo-export/2";

/**
 * Tasks per D1 query. 10,000 tasks take 41 queries, under the Free plan's 50 per invocation with the
 * session and the head; the Paid plan's 1,000 allow about 248,000 (docs/scaling.md). A page is typically 50 KB; its worst case (every task
 * at the 20,000-code-point note limit) is about 25 MB, which still fits the isolate's 128 MB.
 */
export const EXPORT_PAGE_SIZE = 250;

export async function exportHead(db: Db, accountId: string, currentSessionId: string) {
  const [account, created, apiKeys, sessions, accountLists, connections] = await Promise.all([
    getAccount(db, accountId),
    db.get<{ createdAt: string } | undefined>(
      sql`SELECT created_at AS createdAt FROM accounts WHERE id = ${accountId}`,
    ),
    listApiKeys(db, accountId),
    listSessions(db, accountId, currentSessionId),
    // Live lists by name; their counts are not data, they follow from the tasks.
    db
      .select({ id: lists.id, name: lists.name, createdAt: lists.createdAt, updatedAt: lists.updatedAt })
      .from(lists)
      .where(and(eq(lists.accountId, accountId), isNull(lists.deletedAt)))
      .orderBy(asc(lists.nameKey), asc(lists.id)),
    exportConnections(db, accountId),
  ]);
  if (!account || !created) throw new AppError("unauthorized", "The account no longer exists.");
  const { membership, ...rest } = account;
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    account: { ...rest, createdAt: created.createdAt },
    membership,
    apiKeys,
    sessions,
    lists: accountLists,
    connections,
  };
}

/**
 * One page of the account's live tasks after `afterId` (id order, which edits do not move), each
 * as its JSON text: the API's Task shape built by SQLite (the listing's own serialiser) plus
 * `createdAt`. Deleted tasks (tombstones) are not the person's data any more and are left out.
 */
export async function exportTaskPage(
  db: Db,
  accountId: string,
  afterId: string,
): Promise<{ ids: string[]; json: string[] }> {
  const rows = await db.all<{ id: string; json: string }>(sql`
    SELECT id, substr(${taskJsonSql}, 1, length(${taskJsonSql}) - 1) || ',"createdAt":' || json_quote(created_at) || '}' AS json
    FROM tasks WHERE account_id = ${accountId} AND deleted_at IS NULL AND id > ${afterId}
    ORDER BY id LIMIT ${EXPORT_PAGE_SIZE}`);
  return { ids: rows.map((r) => r.id), json: rows.map((r) => r.json) };
}

/**
 * The whole document as a byte stream. The head and the first page are read before the stream
 * is made, so an outage or a refused account is still a problem+json answer; a D1 failure on a
 * later page ends the stream with an error, and the client's download is incomplete JSON.
 */
export async function exportStream(
  db: Db,
  accountId: string,
  currentSessionId: string,
): Promise<ReadableStream<Uint8Array>> {
  const head = JSON.stringify(await exportHead(db, accountId, currentSessionId));
  let page = await exportTaskPage(db, accountId, "");
  const encoder = new TextEncoder();
  let first = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${head.slice(0, -1)},"tasks":[`));
    },
    // Pull: the next page is read only when the client has taken the last one.
    async pull(controller) {
      if (page.ids.length > 0) {
        controller.enqueue(encoder.encode((first ? "" : ",") + page.json.join(",")));
        first = false;
      }
      if (page.ids.length < EXPORT_PAGE_SIZE) {
        controller.enqueue(encoder.encode("]}"));
        controller.close();
        return;
      }
      page = await exportTaskPage(db, accountId, page.ids.at(-1)!);
    },
  });
}
