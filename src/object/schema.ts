import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { nowSql } from "../domain/clock";
import { type TaskFields, taskFields } from "../domain/tasks/fields";

/**
 * The tables of one account's Durable Object (src/object/account-object.ts). Every row here belongs to that
 * one account, so no table has an account column and no statement can reach another account's row.
 * Migrations: `npm run db:generate` writes them to src/object/migrations (drizzle.objects.config.ts).
 */

/** The columns of each declared task field (domain/tasks/fields.ts), in declaration order. */
const taskColumns = Object.fromEntries(Object.entries(taskFields).map(([key, field]) => [key, field.column])) as {
  [K in keyof TaskFields]: TaskFields[K]["column"];
};

export const tasks = sqliteTable("tasks", taskColumns, (t) => [
  // The order of a whole listing (updatedAt, id) and of a `since` sync.
  index("tasks_updated_idx").on(t.updatedAt, t.id),
  // Tombstones only: a `since` sync's deletions and the retention alarm's purge.
  index("tasks_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
  // A list's counts and the listing of one list: live tasks in a list only.
  index("tasks_list_idx")
    .on(t.listId, t.completed, t.deletedAt)
    .where(sql`${t.deletedAt} IS NULL AND ${t.listId} IS NOT NULL`),
  // A task's live subtasks: counts, trees, cascades and the order among siblings (list, parent, position).
  index("tasks_parent_idx").on(t.parentId, t.position).where(sql`${t.deletedAt} IS NULL AND ${t.parentId} IS NOT NULL`),
  // Siblings in order, top-level ones included: where a new task goes (last) and where a move puts it.
  index("tasks_position_idx").on(t.listId, t.parentId, t.position).where(sql`${t.deletedAt} IS NULL`),
]);

export type TaskRow = typeof tasks.$inferSelect;

/** Named lists of tasks. Triggers on `tasks` (migration 0001) keep every live task's list in existence. */
export const lists = sqliteTable(
  "lists",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The name with case folded (nameKeyOf): names are unique ignoring case. */
    nameKey: text("name_key").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    updatedAt: text("updated_at").notNull().default(nowSql),
    /** Tombstone, as for tasks: a `since` sync of lists learns about the deletion. */
    deletedAt: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("lists_name_unique").on(t.nameKey).where(sql`${t.deletedAt} IS NULL`),
    index("lists_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
  ],
);

export type ListRow = typeof lists.$inferSelect;

/**
 * The account's labels: free-form tags a task carries by name (the task's `labels` column). A name used on a
 * task that names no label creates one (labels/service.ts). Deleted outright: a task's change of labels
 * reaches `since` syncs through the task itself.
 */
export const labels = sqliteTable(
  "labels",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The name with case folded (nameKeyOf): names are unique ignoring case. */
    nameKey: text("name_key").notNull(),
    /** The name's words, case and accents folded, each after a space: what a search's word prefixes match. */
    searchKey: text("search_key").notNull(),
    /** `#rrggbb`, lower case; null for none. */
    color: text("color"),
    createdAt: text("created_at").notNull().default(nowSql),
    updatedAt: text("updated_at").notNull().default(nowSql),
  },
  (t) => [uniqueIndex("labels_name_unique").on(t.nameKey)],
);

export type LabelRow = typeof labels.$inferSelect;

/**
 * Which tasks carry which label: an index of the tasks' `labels` column, kept by migration 0005's triggers
 * (as tasks_fts is by 0001's), for the label filter, a label's taskCount and a rename's tasks.
 */
export const taskLabels = sqliteTable(
  "task_labels",
  {
    taskId: text("task_id").notNull(),
    labelId: text("label_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.labelId, t.taskId] }), index("task_labels_task_idx").on(t.taskId)],
);

/** Idempotency-Key records: the created task as stored JSON, so a replay answers with the original body. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    key: text("key").primaryKey(),
    /** SHA-256 of the canonical JSON request body, hex. */
    requestHash: text("request_hash").notNull(),
    taskId: text("task_id").notNull(),
    /** The created task row as JSON (rowToJson). */
    response: text("response").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("idempotency_keys_expires_at_idx").on(t.expiresAt)],
);

/**
 * What a task request judges, held where it is judged. D1 keeps the account page's view of keys and
 * connections; every change that decides a request (created, revoked, expired) is written here too.
 */
export const apiKeys = sqliteTable("api_keys", {
  /** SHA-256 of the full key, hex. */
  keyHash: text("key_hash").primaryKey(),
  id: text("id").notNull(),
  expiresAt: text("expires_at"),
  revokedAt: text("revoked_at"),
  lastUsedAt: text("last_used_at"),
});

/**
 * OAuth connections (their D1 row's id): live until revoked. An access token issued before
 * `liveGeneration` is refused: a retried refresh retires the pair it replaced (connections/refresh-tokens.ts).
 */
export const connections = sqliteTable("connections", {
  id: text("id").primaryKey(),
  revokedAt: text("revoked_at"),
  liveGeneration: integer("live_generation").notNull().default(0),
  lastUsedAt: text("last_used_at"),
});

/** The account itself: one row. */
export const account = sqliteTable("account", {
  id: text("id").primaryKey(),
  timeZone: text("time_zone").notNull().default("UTC"),
  plan: text("plan", { enum: ["free", "max"] })
    .notNull()
    .default("free"),
  /** null: the plan has no end. */
  planExpiresAt: text("plan_expires_at"),
  /** Unused since sign-up sets objects up (`init`); kept so the previous release still runs here if rolled back. */
  upgradedAt: text("upgraded_at").notNull().default(nowSql),
  /** Set by erasure: the account's rows are gone, and nothing may bring them back from D1. */
  erasedAt: text("erased_at"),
  /**
   * Unused since the Worker deletes D1's rows after the move from D1 (move-from-d1.ts); kept, as
   * `upgradedAt`, for a rollback. Drop both with the move's code.
   */
  legacyRowsPending: integer("legacy_rows_pending", { mode: "boolean" }).notNull().default(false),
});

/**
 * Webhook endpoints (at most 10): where the account's events are POSTed, signed with `secret`
 * (Standard Webhooks, src/domain/webhooks/signature.ts). The secret must stay readable to sign.
 */
export const webhooks = sqliteTable("webhooks", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  /** The event types it receives (JSON array). */
  events: text("events", { mode: "json" }).$type<string[]>().notNull(),
  description: text("description"),
  /** `whsec_` + base64 of 32 random bytes. */
  secret: text("secret").notNull(),
  /** The secret before the last rotation: deliveries are signed with it too until `previousSecretUntil`. */
  previousSecret: text("previous_secret"),
  /** When the previous secret stops signing, in milliseconds since the epoch (24 h after the rotation). */
  previousSecretUntil: integer("previous_secret_until"),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** Why it was disabled, when the service did it (20 events in a row failed). */
  disabledReason: text("disabled_reason"),
  /** Events in a row whose every attempt failed; 0 after a delivered one. */
  failedEvents: integer("failed_events").notNull().default(0),
  createdAt: text("created_at").notNull().default(nowSql),
  updatedAt: text("updated_at").notNull().default(nowSql),
});

export type WebhookRow = typeof webhooks.$inferSelect;

/**
 * The transactional outbox: one row per event and webhook, written in the transaction of the change
 * that raised it, deleted when delivered or given up. `body` is the exact JSON sent and signed.
 */
export const webhookOutbox = sqliteTable(
  "webhook_outbox",
  {
    /** The event's id, sent as `webhook-id`: the same on every attempt. */
    eventId: text("event_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    type: text("type").notNull(),
    body: text("body").notNull(),
    /** Attempts made so far. */
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due, in milliseconds since the epoch. */
    dueAt: integer("due_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.webhookId] }), index("webhook_outbox_due_idx").on(t.dueAt)],
);

/** Every delivery attempt, the last 50 per webhook. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    seq: integer("seq").primaryKey(),
    webhookId: text("webhook_id").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    attempt: integer("attempt").notNull(),
    /** The HTTP status answered; null when there was no answer (`error` says why). */
    status: integer("status"),
    error: text("error"),
    at: text("at").notNull().default(nowSql),
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhookId, t.seq)],
);

/**
 * The reminders still to fire: one per open live task whose reminder is in the future. Kept in step
 * with the tasks by every verb (src/object/verbs/events.ts); a row is deleted in the transaction that
 * raises its `task.reminder`, so a reminder fires once.
 */
export const reminders = sqliteTable(
  "reminders",
  {
    taskId: text("task_id").primaryKey(),
    /** The reminder's instant, in milliseconds since the epoch. */
    at: integer("at").notNull(),
  },
  (t) => [index("reminders_at_idx").on(t.at)],
);

/** The account's calendar feed (`/feeds/<token>.ics`): the token's SHA-256, while the feed is on. */
export const feed = sqliteTable("feed", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: text("created_at").notNull().default(nowSql),
});

/**
 * Unused since the alarm is set only when there is work (scheduler.ts): the previous release kept its daily
 * retention's due time here. Kept so that release still runs on this schema if rolled back; drop it later.
 */
export const jobs = sqliteTable("jobs", {
  name: text("name").primaryKey(),
  dueAt: integer("due_at").notNull(),
});

export { mailOutbox, mailSettings } from "./mail-schema";
export { pushOutbox, pushSubscriptions } from "./push-schema";
