import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { AccountDb } from "./context";
import { webhookUrlRefusal } from "../domain/webhooks/address";
import { logDelivery } from "./webhooks/service";
import { signedHeaders } from "../domain/webhooks/signature";
import { webhookOutbox, webhooks } from "./schema";

/**
 * Delivery of the outbox (object/webhooks/outbox.ts) from the account's object, run by its alarm:
 * at least once, a POST of the stored JSON, signed per attempt, 10 s at most, redirects not
 * followed, 2xx delivered. Anything else is retried after about 10 s, 1 min, 10 min, 1 h and 6 h,
 * then given up; after 20 events in a row given up, the webhook is disabled. The outbox row stays
 * until its attempt is recorded, so a restart in between sends it again (same webhook-id).
 *
 * Each attempt is on its own (issue 35): it is recorded in its own transaction when it ends, and the
 * alarm does not wait for it. A receiver that hangs for its 10 s holds back no other webhook: the next
 * event is sent by the next alarm, at once. While out, a row is leased (its `dueAt` moved past the
 * attempt's longest time) so that no alarm sends it twice; if the object goes away meanwhile, the lease
 * runs out and the row is sent again.
 */

export const RETRY_DELAYS_MS = [10_000, 60_000, 600_000, 3_600_000, 21_600_000];
const TIMEOUT_MS = 10_000;
/** How long a row is held while its attempt is out: longer than any attempt. */
export const LEASE_MS = 60_000;
export const DISABLE_AFTER = 20;
/** Attempts per alarm; the alarm comes back at once for the rest. */
const BATCH = 50;

type Due = typeof webhookOutbox.$inferSelect & {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
};

/** The secrets an attempt is signed with: the current one, and the one before a rotation for its 24 h. */
const secretsOf = (row: Due, now: number) =>
  row.previousSecret && (row.previousSecretUntil ?? 0) > now ? [row.secret, row.previousSecret] : [row.secret];
type Outcome = { status: number; error?: undefined } | { status?: undefined; error: string };

async function attempt(row: Due, allowLoopback: boolean): Promise<Outcome> {
  // Checked again at send time: the rule or WEBHOOKS_ALLOW_LOOPBACK may have changed since it was saved.
  const refusal = webhookUrlRefusal(row.url, allowLoopback);
  if (refusal) return { error: `address refused: ${refusal}` };
  const now = Date.now();
  const headers = await signedHeaders(secretsOf(row, now), row.eventId, Math.floor(now / 1000), row.body);
  try {
    const response = await fetch(row.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "todo-calendar-webhooks/1", ...headers },
      body: row.body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { error: "no answer within 10 s" };
    return { error: `request failed: ${String(e instanceof Error ? e.message : e).slice(0, 200)}` };
  }
}

/** The attempt's outcome, in the object's storage: the log, then delivered, retried or given up. */
function record(db: AccountDb, row: Due, outcome: Outcome, now: number): void {
  const key = and(eq(webhookOutbox.eventId, row.eventId), eq(webhookOutbox.webhookId, row.webhookId));
  // Deleted or disabled while the request was out: nothing more to do for it.
  if (!db.select({ n: webhookOutbox.attempts }).from(webhookOutbox).where(key).get()) return;
  const number = row.attempts + 1;
  logDelivery(db, {
    webhookId: row.webhookId,
    eventId: row.eventId,
    type: row.type,
    attempt: number,
    status: outcome.status ?? null,
    error: outcome.error ?? null,
  });
  const webhook = eq(webhooks.id, row.webhookId);
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
    db.delete(webhookOutbox).where(key).run();
    if (row.type !== "webhook.test") db.update(webhooks).set({ failedEvents: 0 }).where(webhook).run();
    return;
  }
  const delay = RETRY_DELAYS_MS[number - 1];
  if (delay !== undefined) {
    db.update(webhookOutbox)
      .set({ attempts: number, dueAt: now + delay })
      .where(key)
      .run();
    return;
  }
  db.delete(webhookOutbox).where(key).run();
  if (row.type === "webhook.test") return;
  const { failedEvents } = db
    .update(webhooks)
    .set({ failedEvents: sql`${webhooks.failedEvents} + 1` })
    .where(webhook)
    .returning({ failedEvents: webhooks.failedEvents })
    .get()!;
  if (failedEvents >= DISABLE_AFTER) {
    const last = outcome.status !== undefined ? `HTTP ${outcome.status}` : outcome.error;
    const reason = `Disabled on ${new Date(now).toISOString().slice(0, 10)}: ${DISABLE_AFTER} events in a row could not be delivered (last answer: ${last}).`;
    db.update(webhooks).set({ enabled: false, disabledReason: reason }).where(webhook).run();
    db.delete(webhookOutbox).where(eq(webhookOutbox.webhookId, row.webhookId)).run();
  }
}

/**
 * Starts the deliveries due at `now` and leases their rows, then returns: one promise per attempt,
 * which records its outcome (its own transaction) and then calls `recorded` (the object sets its alarm).
 */
export function deliverDue(
  storage: DurableObjectStorage,
  db: AccountDb,
  allowLoopback: boolean,
  now: number,
  recorded: () => Promise<void>,
): Promise<void>[] {
  const due: Due[] = storage.transactionSync(() => {
    const rows = db
      .select({
        eventId: webhookOutbox.eventId,
        webhookId: webhookOutbox.webhookId,
        type: webhookOutbox.type,
        body: webhookOutbox.body,
        attempts: webhookOutbox.attempts,
        dueAt: webhookOutbox.dueAt,
        url: webhooks.url,
        secret: webhooks.secret,
        previousSecret: webhooks.previousSecret,
        previousSecretUntil: webhooks.previousSecretUntil,
      })
      .from(webhookOutbox)
      .innerJoin(webhooks, eq(webhooks.id, webhookOutbox.webhookId))
      .where(lte(webhookOutbox.dueAt, now))
      .orderBy(asc(webhookOutbox.dueAt), sql`${webhookOutbox}.rowid`)
      .limit(BATCH)
      .all();
    for (const row of rows)
      db.update(webhookOutbox)
        .set({ dueAt: now + LEASE_MS })
        .where(and(eq(webhookOutbox.eventId, row.eventId), eq(webhookOutbox.webhookId, row.webhookId)))
        .run();
    return rows;
  });
  return due.map(async (row) => {
    const outcome = await attempt(row, allowLoopback);
    storage.transactionSync(() => record(db, row, outcome, Date.now()));
    await recorded();
  });
}
