import { buildPushPayload } from "@block65/webcrypto-web-push";
import type { Vapid } from "../../domain/push/config";
import { asc, eq, lte, min } from "drizzle-orm";
import { reminderMessage } from "../../domain/push/message";
import { NOTICE_LEASE_MS, NOTICE_RETRY_DELAYS_MS } from "../notice-retry";
import type { AccountDb } from "../context";
import { pushOutbox, pushSubscriptions } from "../schema";
import type { Event } from "../webhooks/outbox";
import { forgetSubscriptions } from "./subscriptions";

/**
 * Reminders as browser notifications (Web Push: RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID), run by
 * the object's alarm with the once-only rule of webhooks and mail: a push per device is queued in the transaction
 * that fires its reminder (whose row goes in that same transaction, tasks/reminders.ts), keyed by device and
 * reminder, so a retried alarm neither fires nor queues it twice. A send is leased while out and its row deleted
 * once recorded. The push service's answer decides what follows:
 * - 2xx: delivered (the service holds it for the device up to TTL);
 * - 404 or 410: the subscription is gone (the user unsubscribed, the browser dropped it): the device is forgotten;
 * - 429, 5xx, no answer: retried after 1 min, 10 min and 1 h, then given up;
 * - any other 4xx (a refused VAPID token, a payload too large): given up at once, logged.
 * Where push is off (no VAPID keys), nothing is queued and anything left is dropped.
 */

const TIMEOUT_MS = 10_000;
const BATCH = 20;
/** How long a push service keeps a reminder for a device that is offline: a day-old reminder still helps. */
const TTL_SECONDS = 86_400;

/** In the alarm's firing transaction: one push per fired reminder and device. */
export function queuePush(db: AccountDb, fired: Event[], now: number): void {
  const reminders = fired.filter((event) => event.type === "task.reminder");
  if (reminders.length === 0) return;
  const devices = db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).all();
  for (const { data: task } of reminders) {
    const body = JSON.stringify(reminderMessage(task));
    for (const { id } of devices) {
      db.insert(pushOutbox)
        .values({ id: `${id}:${task.id}:${task.reminder}`, subscriptionId: id, body, dueAt: now })
        .onConflictDoNothing()
        .run();
    }
  }
}

/** When the next push is due; null when none is queued. */
export const nextPushAt = (db: AccountDb): number | null =>
  db
    .select({ at: min(pushOutbox.dueAt) })
    .from(pushOutbox)
    .get()?.at ?? null;

type Due = typeof pushOutbox.$inferSelect & Pick<typeof pushSubscriptions.$inferSelect, "endpoint" | "p256dh" | "auth">;
type Outcome = { status: number } | { error: string };

async function push(row: Due, vapid: Vapid): Promise<Outcome> {
  const subscription = { endpoint: row.endpoint, expirationTime: null, keys: { p256dh: row.p256dh, auth: row.auth } };
  try {
    const payload = await buildPushPayload(
      { data: row.body, options: { ttl: TTL_SECONDS, urgency: "high" } },
      subscription,
      vapid,
    );
    const response = await fetch(row.endpoint, {
      ...payload,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (e) {
    return { error: String(e instanceof Error ? `${e.name}: ${e.message}` : e).slice(0, 200) };
  }
}

/** The attempt's outcome, in its own transaction: delivered, device forgotten, retried or given up. */
function record(db: AccountDb, row: Due, outcome: Outcome, now: number): void {
  const key = eq(pushOutbox.id, row.id);
  const status = "status" in outcome ? outcome.status : undefined;
  if (status === 404 || status === 410) {
    forgetSubscriptions(db, [row.subscriptionId]);
    return;
  }
  const delay = NOTICE_RETRY_DELAYS_MS[row.attempts];
  const retry = status === undefined || status === 429 || status >= 500;
  if ((status !== undefined && status >= 200 && status < 300) || !retry || delay === undefined) {
    if (status === undefined || status >= 300)
      console.warn("push given up", { status, ...outcome, attempts: row.attempts + 1 });
    db.delete(pushOutbox).where(key).run();
    return;
  }
  db.update(pushOutbox)
    .set({ attempts: row.attempts + 1, dueAt: now + delay })
    .where(key)
    .run();
}

/** Sends the pushes due at `now` (leased first, recorded after), or drops them all when push is off. */
export async function sendDuePush(
  storage: DurableObjectStorage,
  db: AccountDb,
  vapid: Vapid | null,
  now: number,
): Promise<void> {
  if (!vapid) {
    db.delete(pushOutbox).run();
    return;
  }
  const due = storage.transactionSync(() => {
    const rows = db
      .select({
        id: pushOutbox.id,
        subscriptionId: pushOutbox.subscriptionId,
        body: pushOutbox.body,
        attempts: pushOutbox.attempts,
        dueAt: pushOutbox.dueAt,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
      })
      .from(pushOutbox)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
      .where(lte(pushOutbox.dueAt, now))
      .orderBy(asc(pushOutbox.dueAt))
      .limit(BATCH)
      .all();
    for (const row of rows)
      db.update(pushOutbox)
        .set({ dueAt: now + NOTICE_LEASE_MS })
        .where(eq(pushOutbox.id, row.id))
        .run();
    return rows;
  });
  await Promise.all(
    due.map(async (row) => {
      const outcome = await push(row, vapid);
      storage.transactionSync(() => record(db, row, outcome, now));
    }),
  );
}
