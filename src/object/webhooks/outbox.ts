import { webhookOutbox, webhooks } from "../schema";
import type { AccountDb } from "../context";
import type { Label } from "../../domain/labels/schemas";
import type { List } from "../../domain/lists/schemas";
import type { Task } from "../../domain/tasks/schemas";
import type { EventType } from "../../domain/webhooks/schemas";

/**
 * Each event type's `data`, as the receiver gets it (docs/events.md; the OpenAPI `webhooks`,
 * http/v1/event-documents.ts, are checked against it). A new type must be added here to be raised.
 */
export interface EventData {
  "task.created": Task;
  "task.updated": Task;
  /** With `next` when a repeating task spawned its next occurrence. */
  "task.completed": Task & { next?: Task };
  "task.deleted": { id: string };
  "task.reminder": Task;
  "list.created": List;
  "list.updated": List;
  "list.deleted": { id: string };
  "label.created": Label;
  "label.updated": Label;
  "label.deleted": { id: string };
  /** Sent to the webhook tested alone, enabled or not, whatever its events. */
  "webhook.test": { webhookId: string; message: string };
}

/**
 * An event as a verb (account/verbs) or the alarm (reminders) raises it: its type and that type's data.
 * `id` is set when the verb already answered with it (testWebhook); otherwise a new one is made.
 */
export type Event<T extends EventType = EventType> = T extends EventType
  ? { type: T; data: EventData[T]; id?: string }
  : never;

/** A new event id, sent as `webhook-id` (the `msg_` prefix of the Standard Webhooks examples). */
export const newEventId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/** Whether a webhook receives the event: `webhook.test` only the one tested, any other type the enabled ones that want it. */
const wants = (target: { id: string; events: string[]; enabled: boolean }, event: Event) =>
  event.type === "webhook.test"
    ? target.id === event.data.webhookId
    : target.enabled && target.events.includes(event.type);

/**
 * Writes each event once per webhook that wants it, in the caller's transaction (the transactional
 * outbox): an event is sent exactly when its change is committed, and never for a change rolled back.
 * The body is fixed here, so every attempt sends (and signs) the same bytes. Returns the ids of the
 * events queued (those some webhook wants).
 */
export function enqueue(db: AccountDb, events: Event[], now: number): string[] {
  if (events.length === 0) return [];
  const targets = db
    .select({ id: webhooks.id, events: webhooks.events, enabled: webhooks.enabled })
    .from(webhooks)
    .all();
  if (targets.length === 0) return [];
  const timestamp = new Date(now).toISOString();
  const ids: string[] = [];
  const rows = events.flatMap((event) => {
    const to = targets.filter((target) => wants(target, event));
    if (to.length === 0) return [];
    const eventId = event.id ?? newEventId();
    ids.push(eventId);
    const body = JSON.stringify({ type: event.type, timestamp, data: event.data });
    return to.map((target) => ({ eventId, webhookId: target.id, type: event.type, body, attempts: 0, dueAt: now }));
  });
  // A Durable Object's SQLite binds at most 100 parameters per statement: 6 columns, 16 rows a go.
  for (let i = 0; i < rows.length; i += 16)
    db.insert(webhookOutbox)
      .values(rows.slice(i, i + 16))
      .run();
  return ids;
}
