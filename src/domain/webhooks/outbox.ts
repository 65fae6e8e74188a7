import { eq } from "drizzle-orm";
import { webhookOutbox, webhooks } from "../../account/schema";
import type { AccountDb } from "../context";
import type { EventType } from "./schemas";

/** An event as a verb raises it: its type and its `data` (a Task, a List, or `{id}` for a deletion). */
export interface Event {
  type: EventType;
  data: unknown;
}

/** A new event id, sent as `webhook-id` (the `msg_` prefix of the Standard Webhooks examples). */
export const newEventId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * Writes each event once per webhook that wants it, in the caller's transaction (the transactional
 * outbox): an event is sent exactly when its change is committed, and never for a change rolled back.
 * The body is fixed here, so every attempt sends (and signs) the same bytes. `only` targets one
 * webhook whatever its events (webhook.test). Returns the ids of the events queued.
 */
export function enqueue(db: AccountDb, events: Event[], now: number, only?: string): string[] {
  if (events.length === 0) return [];
  const targets = db
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .where(only ? eq(webhooks.id, only) : eq(webhooks.enabled, true))
    .all();
  if (targets.length === 0) return [];
  const timestamp = new Date(now).toISOString();
  const ids: string[] = [];
  const rows = events.flatMap((event) => {
    const eventId = newEventId();
    ids.push(eventId);
    const body = JSON.stringify({ type: event.type, timestamp, data: event.data });
    return targets
      .filter((target) => only || target.events.includes(event.type))
      .map((target) => ({ eventId, webhookId: target.id, type: event.type, body, attempts: 0, dueAt: now }));
  });
  // A Durable Object's SQLite binds at most 100 parameters per statement: 6 columns, 16 rows a go.
  for (let i = 0; i < rows.length; i += 16)
    db.insert(webhookOutbox)
      .values(rows.slice(i, i + 16))
      .run();
  return ids;
}
