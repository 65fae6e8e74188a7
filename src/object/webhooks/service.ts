import { and, count, desc, eq, lt } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { webhookDeliveries, webhookOutbox, type WebhookRow, webhooks } from "../schema";
import type { AccountContext, AccountDb } from "../context";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { webhookUrlRefusal } from "../../domain/webhooks/address";
import { newEventId } from "./outbox";
import {
  type Delivery,
  eventTypes,
  type NewWebhook,
  type Webhook,
  WEBHOOK_LIMIT,
  type WebhookInput,
  type WebhookPatch,
} from "../../domain/webhooks/schemas";

/** The webhook verbs, run inside the account's object like the task verbs (account/verbs/). */

/** Deliveries kept per webhook. */
export const DELIVERY_LOG = 50;

const notFound = () => new AppError("webhook_not_found", "No webhook with this id in your account.");

export function toWebhook(row: WebhookRow): Webhook {
  const { id, url, events, description, enabled, disabledReason, previousSecretUntil, createdAt, updatedAt } = row;
  const overlap = previousSecretUntil !== null && previousSecretUntil > Date.now();
  return {
    id,
    url,
    events: events as Webhook["events"],
    ...(description ? { description } : {}),
    enabled,
    ...(disabledReason ? { disabledReason } : {}),
    ...(overlap ? { previousSecretExpiresAt: new Date(previousSecretUntil).toISOString() } : {}),
    createdAt,
    updatedAt,
  };
}

/** 400 naming `url` when the address is refused (address.ts: the refusal is a whole sentence). */
function checkUrl(url: string, allowLoopback: boolean) {
  const refusal = webhookUrlRefusal(url, allowLoopback);
  if (refusal) throw new AppError("validation_failed", refusal, [{ path: "url", message: refusal }]);
}

function liveWebhook(db: AccountDb, id: string): WebhookRow {
  const row = db.select().from(webhooks).where(eq(webhooks.id, id)).get();
  if (!row) throw notFound();
  return row;
}

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** The account's webhooks, oldest first, without their secrets (the account page adds more: overview.ts). */
export function listWebhooks({ db }: { db: AccountDb }): Webhook[] {
  return db
    .select()
    .from(webhooks)
    .orderBy(webhooks.createdAt, webhooks.id)
    .all()
    .map((row) => toWebhook(row));
}

export interface WebhookWrite {
  /** WEBHOOKS_ALLOW_LOOPBACK, read by the Worker from its configuration. */
  allowLoopback: boolean;
}

export function createWebhook({ db }: AccountContext, args: WebhookWrite & { input: WebhookInput }): NewWebhook {
  const { input, allowLoopback } = args;
  checkUrl(input.url, allowLoopback);
  if (db.select({ n: count() }).from(webhooks).get()!.n >= WEBHOOK_LIMIT) {
    throw new AppError(
      "webhook_limit_reached",
      `An account has at most ${WEBHOOK_LIMIT} webhooks. Delete one (DELETE /api/v1/webhooks/{id}) first.`,
    );
  }
  const row = db
    .insert(webhooks)
    .values({
      id: newId(),
      url: input.url,
      events: input.events ?? [...eventTypes],
      description: input.description || null,
      secret: newSecret(),
    })
    .returning()
    .get();
  return { ...toWebhook(row), secret: row.secret };
}

export function updateWebhook(
  { db }: AccountContext,
  { id, patch, allowLoopback }: WebhookWrite & { id: string; patch: WebhookPatch },
): Webhook {
  const current = liveWebhook(db, id);
  if (patch.url !== undefined) checkUrl(patch.url, allowLoopback);
  if (Object.values(patch).every((v) => v === undefined)) return toWebhook(current);
  const enabling = patch.enabled === true && !current.enabled;
  const row = db
    .update(webhooks)
    .set({
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.events !== undefined ? { events: patch.events } : {}),
      ...(patch.description !== undefined ? { description: patch.description || null } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      // Enabled again by its owner: the service's reason and count start over.
      ...(enabling ? { disabledReason: null, failedEvents: 0 } : {}),
      updatedAt: nowSql,
    })
    .where(eq(webhooks.id, id))
    .returning()
    .get()!;
  if (patch.enabled === false) db.delete(webhookOutbox).where(eq(webhookOutbox.webhookId, id)).run();
  return toWebhook(row);
}

/** How long the secret before a rotation keeps signing: a receiver has a day to switch. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/**
 * A new secret, shown once; the current one becomes the previous and signs every delivery too, for 24 h
 * (delivery.ts sends both signatures). A secret rotated twice within a day keeps only the one just replaced.
 */
export function rotateWebhookSecret({ db }: AccountContext, { id }: { id: string }): NewWebhook {
  const current = liveWebhook(db, id);
  const row = db
    .update(webhooks)
    .set({
      secret: newSecret(),
      previousSecret: current.secret,
      previousSecretUntil: Date.now() + SECRET_OVERLAP_MS,
      updatedAt: nowSql,
    })
    .where(eq(webhooks.id, id))
    .returning()
    .get()!;
  return { ...toWebhook(row), secret: row.secret };
}

/** Deletes the webhook, its pending deliveries and its log. */
export function deleteWebhook({ db }: AccountContext, { id }: { id: string }): null {
  liveWebhook(db, id);
  db.delete(webhooks).where(eq(webhooks.id, id)).run();
  db.delete(webhookOutbox).where(eq(webhookOutbox.webhookId, id)).run();
  db.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id)).run();
  return null;
}

/**
 * The id of a `webhook.test` event for this webhook alone (enabled or not); the verb raises it
 * (account/verbs/test-webhook.ts), and it is delivered like any event.
 */
export function testWebhook({ db }: AccountContext, { id }: { id: string }): { eventId: string } {
  liveWebhook(db, id);
  return { eventId: newEventId() };
}

/** The webhook's last 50 delivery attempts, newest first. */
export function listWebhookDeliveries({ db }: AccountContext, { id }: { id: string }): Delivery[] {
  liveWebhook(db, id);
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, id))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(DELIVERY_LOG)
    .all()
    .map(({ eventId, type, attempt, status, error, at }) => ({
      eventId,
      type,
      attempt,
      ...(status !== null ? { status } : {}),
      ...(error !== null ? { error } : {}),
      at,
    }));
}

/** Records an attempt and keeps the log at its last 50 (delivery.ts). */
export function logDelivery(db: AccountDb, entry: typeof webhookDeliveries.$inferInsert): void {
  db.insert(webhookDeliveries).values(entry).run();
  const oldest = db
    .select({ seq: webhookDeliveries.seq })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, entry.webhookId))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(1)
    .offset(DELIVERY_LOG - 1)
    .get();
  if (oldest) {
    db.delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, entry.webhookId), lt(webhookDeliveries.seq, oldest.seq)))
      .run();
  }
}
