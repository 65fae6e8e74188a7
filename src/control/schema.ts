import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { type TaskFields, taskFields } from "../domain/tasks/fields";
import { nowSql } from "../domain/clock";

// Every table's timestamps come from the database clock (clock.ts); re-exported for the table users.
export { nowSql };

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    timeZone: text("time_zone").notNull().default("UTC"),
    createdAt: text("created_at").notNull().default(nowSql),
    /** When the address was proven by a mailed link (email-schema.ts); NULL until then. */
    emailVerifiedAt: text("email_verified_at"),
    /** Chosen at sign-up only (domain/data-location.ts); the account's id carries it too, for routing. */
    dataLocation: text("data_location", { enum: ["global", "eu"] })
      .notNull()
      .default("global"),
  },
  (t) => [uniqueIndex("accounts_email_unique").on(t.email)],
);

export const memberships = sqliteTable("memberships", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  plan: text("plan", { enum: ["free", "max"] })
    .notNull()
    .default("free"),
  /** null means the plan has no end. The effective membership: the union of the two grants below. */
  expiresAt: text("expires_at"),
  updatedAt: text("updated_at").notNull().default(nowSql),
  /** The operator's grant (PUT /admin/memberships), kept apart so a subscription's end does not end it. */
  grantedPlan: text("granted_plan", { enum: ["free", "max"] })
    .notNull()
    .default("free"),
  grantedExpiresAt: text("granted_expires_at"),
  /** Max until this instant through a Stripe subscription (control/billing-schema.ts); null: none. */
  subscriptionExpiresAt: text("subscription_expires_at"),
});

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    /** Refreshed at most once a minute, off the response path (like api_keys.last_used_at). */
    lastUsedAt: text("last_used_at"),
    /** The User-Agent that signed in, cut to 256 characters, so a person can tell their sessions apart. */
    userAgent: text("user_agent"),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_unique").on(t.tokenHash),
    index("sessions_expires_at_idx").on(t.expiresAt),
    // The account's session list and the password change's "end every other session".
    index("sessions_account_idx").on(t.accountId),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the full key, hex. The plaintext is never stored. */
    keyHash: text("key_hash").notNull(),
    /** Display hint: the key's start and its last 4 characters. */
    hint: text("hint").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    lastUsedAt: text("last_used_at"),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_key_hash_unique").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

/*
 * tasks, lists and idempotency_keys below are the tables of the single-database release. Each account's
 * tasks, lists and idempotency records now live in its own Durable Object (src/object/schema.ts); these
 * rows are read once, by the move from D1 of their account into its object (src/control/move-from-d1.ts,
 * on its first request or by the daily job), and deleted there. A database that never held the previous
 * release keeps them empty. They stay declared so that the move reads them with the same column mapping.
 */

/**
 * The accounts that wait for the move from D1 (src/control/move-from-d1.ts): migration 0013 put every
 * account that existed then here, since each was made by a release whose object may never have been
 * opened or whose rows may still be in D1. An account made since is set up by sign-up (`init`) and never
 * waits. The move deletes its row; once the daily job logs none left, the table goes with the move.
 */
export const waitingMoves = sqliteTable("waiting_moves", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
});

/**
 * Accounts that may still hold a feed token made before tokens were signed (control/feed-tokens.ts): every
 * account that existed at D1 migration 0014, until it rotates or disables its feed.
 */
export const unsignedFeeds = sqliteTable("unsigned_feeds", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
});

/**
 * The task fields the single-database release stored (domain/tasks/fields.ts), in declaration order: that
 * table is frozen, and fields added since (parentId, priority, position, labels) are the object's alone; the
 * move from D1 gives moved rows their values as the objects' migrations gave old ones (object/move-in.ts).
 */
const singleDatabaseFields = [
  "id",
  "title",
  "completed",
  "updatedAt",
  "important",
  "listId",
  "due",
  "reminder",
  "repeat",
  "notes",
  "completedAt",
  "createdAt",
  "deletedAt",
  "nextId",
] as const satisfies readonly (keyof TaskFields)[];
type SingleDatabaseField = (typeof singleDatabaseFields)[number];
const taskColumns = Object.fromEntries(singleDatabaseFields.map((key) => [key, taskFields[key].column])) as {
  [K in SingleDatabaseField]: TaskFields[K]["column"];
};

export const tasks = sqliteTable(
  "tasks",
  {
    ...taskColumns,
    /** The owner: every task statement is scoped by it (not a field of the API's Task). */
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
  },
  (t) => [
    index("tasks_account_updated_idx").on(t.accountId, t.updatedAt, t.id),
    // Pages walk an account's tasks by id, a key that edits do not move.
    index("tasks_account_id_idx").on(t.accountId, t.id),
    // Only tombstones: the retention job's purge is its one reader, and live tasks (deleted_at NULL) need no
    // entry, which saves a b-tree write per create (node:sqlite, WAL: 45 → 37–41 µs per insert, 3 % smaller).
    index("tasks_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
    // The tombstones of one account, for a `since` sync: without it that statement walked every task of the
    // account (2.3 ms for 10,000 tasks against 53 µs for 100, docs/scaling.md). Tombstones only, as above.
    index("tasks_account_deleted_idx").on(t.accountId, t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
    // A list's counts (openCount, taskCount) and the listing of one list: live tasks that are in a list only,
    // so a task without a list pays no entry. deleted_at (always NULL here) makes the index covering for the
    // counts, which must name it to use a partial index.
    index("tasks_account_list_idx")
      .on(t.accountId, t.listId, t.completed, t.deletedAt)
      .where(sql`${t.deletedAt} IS NULL AND ${t.listId} IS NOT NULL`),
  ],
);

export type TaskRow = typeof tasks.$inferSelect;

/**
 * Named lists of tasks (issue 19). A list's id is what tasks carry in `list_id`, so it is unique per
 * account, not globally. Migration 0008 adds triggers on `tasks` that keep every live task's list in
 * existence (a task written with a `listId` that names no list creates it) and that move a list's
 * `updated_at` when its counts change, so a `since` sync of lists sees fresh counts.
 */
export const lists = sqliteTable(
  "lists",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    name: text("name").notNull(),
    /** The name with case folded (object/lists/names.ts): names are unique per account ignoring case. */
    nameKey: text("name_key").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    updatedAt: text("updated_at").notNull().default(nowSql),
    /** Tombstone, as for tasks: a `since` sync of lists learns about the deletion. */
    deletedAt: text("deleted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex("lists_account_name_unique").on(t.accountId, t.nameKey).where(sql`${t.deletedAt} IS NULL`),
    index("lists_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
  ],
);

export type ListRow = typeof lists.$inferSelect;

/**
 * Idempotency-Key records of POST /api/v1/tasks and create_task's clientRequestId, per account.
 * The row is claimed and the task created in one batch; `response` is the created task row as
 * JSON, so a replay answers with the original body even after the task changed.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of the canonical JSON request body, hex. */
    requestHash: text("request_hash").notNull(),
    /** Random per-request value: tells the request that won the claim from its duplicates. */
    claim: text("claim").notNull(),
    taskId: text("task_id").notNull(),
    response: text("response"),
    createdAt: text("created_at").notNull().default(nowSql),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_expires_at_idx").on(t.expiresAt)],
);

/**
 * OAuth connections (issue 18): one row per grant a person approved on the consent page, the source of
 * truth for revocation. The grant and its tokens live in OAUTH_KV (workers-oauth-provider), which is
 * eventually consistent between locations; every OAuth request on /mcp and every refresh checks this row
 * instead (src/control/connections/service.ts), so a revocation holds on the very next request everywhere.
 */
export const oauthConnections = sqliteTable(
  "oauth_connections",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The provider's grant id (the middle part of its `<user>:<grant>:<secret>` tokens), for revokeGrant. */
    grantId: text("grant_id").notNull(),
    /** The OAuth client_id: a registered id, or a Client ID Metadata Document URL. */
    clientId: text("client_id").notNull(),
    /** The name the consent page showed (self-asserted by the client, cut to 200 characters). */
    clientName: text("client_name").notNull(),
    /** Where the codes went: its host is what the person approved. */
    redirectUri: text("redirect_uri").notNull(),
    /** Granted scopes, space-separated (`tasks:read tasks:write`). */
    scopes: text("scopes").notNull(),
    createdAt: text("created_at").notNull().default(nowSql),
    /** Refreshed on a token refresh and, at most once a minute, on MCP requests. */
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    /** A token refresh in flight holds the connection until then (Worker clock): one refresh at a time. */
    refreshLeaseUntil: text("refresh_lease_until"),
    /** Refreshes so far; each access token carries the count it was issued at (GrantProps.generation). */
    refreshGeneration: integer("refresh_generation").notNull().default(0),
    /** Access tokens issued before this count are refused: a retried refresh abandons the pair it replaces. */
    liveGeneration: integer("live_generation").notNull().default(0),
  },
  (t) => [
    uniqueIndex("oauth_connections_grant_unique").on(t.grantId),
    index("oauth_connections_account_idx").on(t.accountId),
  ],
);

/**
 * Every refresh token a connection was issued, by SHA-256 (the provider's own token id): the live one
 * has no `replaced_at`. A replaced one presented after its grace period ends the connection
 * (src/control/connections/refresh-tokens.ts). Times are the Worker's clock, as the provider's token lifetimes.
 */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => oauthConnections.id, { onDelete: "cascade" }),
    issuedAt: text("issued_at").notNull(),
    replacedAt: text("replaced_at"),
  },
  (t) => [index("oauth_refresh_tokens_connection_idx").on(t.connectionId, t.replacedAt)],
);
