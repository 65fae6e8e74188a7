import { eq } from "drizzle-orm";
import { reachAccount } from "../account-client";
import type { Db } from "../db";
import { accounts } from "../schema";
import { listApiKeys } from "../api-keys/service";
import { exportBilling } from "../billing/store";
import { exportConnections } from "../connections/service";
import { AppError } from "../../domain/errors";
import { getAccount } from "./service";
import { listSessions } from "./sessions";
import { listPasskeys } from "./passkeys";
import { listSecurityEvents } from "../security-events";

/**
 * The account's data as one JSON document (GDPR art. 15 and 20), built to be streamed: the small
 * head (account, membership, keys, sessions, passkeys, connections, billing, security events from D1; lists, labels, webhooks without
 * their secrets, and the devices that get notifications, from the account's object) is
 * read at once, the tasks page by page from the object, so memory holds one page, never the whole
 * account. docs/scaling.md has the measurements.
 */
export const EXPORT_FORMAT = "todo-export/2";

export async function exportHead(db: Db, env: Env, accountId: string, currentSessionId: string) {
  const [account, created, apiKeys, sessions, own, connections, billing, securityEvents, passkeys] = await Promise.all([
    getAccount(db, accountId),
    db.select({ createdAt: accounts.createdAt }).from(accounts).where(eq(accounts.id, accountId)).get(),
    listApiKeys(db, env, accountId),
    listSessions(db, accountId, currentSessionId),
    reachAccount(env, accountId, (object) => object.exportHead()),
    exportConnections(db, accountId),
    exportBilling(db, accountId),
    listSecurityEvents(db, accountId, 10_000),
    listPasskeys(db, accountId),
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
    lists: own.lists,
    labels: own.labels,
    connections,
    billing,
    webhooks: own.webhooks,
    pushSubscriptions: own.pushSubscriptions,
    passkeys,
    securityEvents,
  };
}

/**
 * The whole document as a byte stream. The head and the first page are read before the stream
 * is made, so an outage or a refused account is still a problem+json answer; a failure on a
 * later page ends the stream with an error, and the client's download is incomplete JSON.
 */
export async function exportStream(
  db: Db,
  env: Env,
  accountId: string,
  currentSessionId: string,
): Promise<ReadableStream<Uint8Array>> {
  const head = JSON.stringify(await exportHead(db, env, accountId, currentSessionId));
  const pageAfter = (afterId: string) => reachAccount(env, accountId, (object) => object.exportTasks(afterId));
  let page = await pageAfter("");
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
      if (!page.more) {
        controller.enqueue(encoder.encode("]}"));
        controller.close();
        return;
      }
      page = await pageAfter(page.ids.at(-1)!);
    },
  });
}
