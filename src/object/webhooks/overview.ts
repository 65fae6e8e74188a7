import { asc, eq } from "drizzle-orm";
import type { AccountContext } from "../context";
import { webhookOutbox } from "../schema";
import type { Delivery, PendingDelivery, Webhook } from "../../domain/webhooks/schemas";
import { listWebhookDeliveries, listWebhooks } from "./service";

/** What the account page shows of each webhook (the "Calendar feed and webhooks" section). */

/** Attempts the page shows per webhook, newest first. */
const RECENT = 5;

export interface PageWebhook extends Webhook {
  /** The last failed attempts (any status but 2xx, or no answer). */
  recentFailures: Delivery[];
  /** The last attempts, whatever their outcome. */
  recentDeliveries: Delivery[];
  /** The deliveries still to come and when each is next attempted (the retry schedule, delivery.ts). */
  pending: PendingDelivery[];
}

const failed = (d: Delivery) => d.status === undefined || d.status < 200 || d.status >= 300;

export function pageWebhooks(ctx: AccountContext): PageWebhook[] {
  return listWebhooks(ctx).map((webhook) => {
    const log = listWebhookDeliveries(ctx, { id: webhook.id });
    const pending = ctx.db
      .select({
        eventId: webhookOutbox.eventId,
        type: webhookOutbox.type,
        attempts: webhookOutbox.attempts,
        dueAt: webhookOutbox.dueAt,
      })
      .from(webhookOutbox)
      .where(eq(webhookOutbox.webhookId, webhook.id))
      .orderBy(asc(webhookOutbox.dueAt))
      .limit(RECENT)
      .all()
      .map(({ dueAt, ...rest }) => ({ ...rest, nextAttemptAt: new Date(dueAt).toISOString() }));
    return {
      ...webhook,
      recentFailures: log.filter(failed).slice(0, RECENT),
      recentDeliveries: log.slice(0, RECENT),
      pending,
    };
  });
}
