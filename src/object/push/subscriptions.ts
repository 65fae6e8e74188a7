import { asc, count, eq, inArray } from "drizzle-orm";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import {
  PUSH_SUBSCRIPTION_LIMIT,
  type PushSubscriptionInput,
  type PushSubscriptionView,
} from "../../domain/push/subscription";
import { describeUserAgent } from "../../domain/user-agent";
import type { AccountContext, AccountDb } from "../context";
import { pushOutbox, pushSubscriptions } from "../schema";

/**
 * The account's devices that get reminders as browser notifications (the tasks page's "Notify me on this
 * device"). Several devices, one row each, found again by endpoint: a device that subscribes again keeps its row.
 */

const PUSH_OFF =
  "This deployment sends no browser notifications: it has no VAPID keys. Reminders by email or a webhook still work.";

type Row = typeof pushSubscriptions.$inferSelect;

const view = ({ id, endpoint, device, createdAt }: Row): PushSubscriptionView => ({ id, endpoint, device, createdAt });

export const listPushSubscriptions = ({ db }: { db: AccountDb }): PushSubscriptionView[] =>
  db
    .select()
    .from(pushSubscriptions)
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id))
    .all()
    .map(view);

/** Removes devices and what was waiting to be pushed to them. */
export function forgetSubscriptions(db: AccountDb, ids: string[]): void {
  if (ids.length === 0) return;
  db.delete(pushOutbox).where(inArray(pushOutbox.subscriptionId, ids)).run();
  db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids)).run();
}

/**
 * Stores a device's subscription, or renews the keys of the one stored for its endpoint (`created` false). Past
 * PUSH_SUBSCRIPTION_LIMIT the oldest device is forgotten: a browser that lost its subscription without telling
 * us (a cleared profile) must not keep a new one out.
 */
export function addPushSubscription(
  { db }: AccountContext,
  { input, userAgent, pushOn }: { input: PushSubscriptionInput; userAgent: string | null; pushOn: boolean },
): { subscription: PushSubscriptionView; created: boolean } {
  // Judged after the credential (401, 403) and the body (400): a permanent state of the deployment, not the caller's.
  if (!pushOn) throw new AppError("push_off", PUSH_OFF);
  const keys = { p256dh: input.keys.p256dh, auth: input.keys.auth, device: describeUserAgent(userAgent) };
  const stored = db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, input.endpoint)).get();
  if (stored) {
    const row = db.update(pushSubscriptions).set(keys).where(eq(pushSubscriptions.id, stored.id)).returning().get();
    return { subscription: view(row), created: false };
  }
  const held = db.select({ n: count() }).from(pushSubscriptions).get()?.n ?? 0;
  if (held >= PUSH_SUBSCRIPTION_LIMIT) {
    const oldest = db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id))
      .limit(held - PUSH_SUBSCRIPTION_LIMIT + 1)
      .all();
    forgetSubscriptions(
      db,
      oldest.map((o) => o.id),
    );
  }
  const row = db
    .insert(pushSubscriptions)
    .values({ id: newId(), endpoint: input.endpoint, ...keys })
    .returning()
    .get();
  return { subscription: view(row), created: true };
}

export function removePushSubscription({ db }: AccountContext, { id }: { id: string }): null {
  const row = db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).get();
  if (!row) {
    throw new AppError(
      "push_subscription_not_found",
      "No device with this id gets notifications for your account: it was removed, or never stored.",
    );
  }
  forgetSubscriptions(db, [id]);
  return null;
}
