import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Every timestamp is RFC 3339 UTC text with milliseconds, written by the database clock
 * (`nowSql`), so ordering by text is ordering by time and `since` comparisons are exact.
 */
export const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    timeZone: text("time_zone").notNull().default("UTC"),
    createdAt: text("created_at").notNull().default(nowSql),
    /**
     * A random token that changes with every write to the account's tasks (set by triggers on
     * `tasks`, migration 0003; NULL until the first one). A listing kept by an isolate is served again
     * only while D1 still reports the token it was read at (domain/tasks/listing-cache.ts).
     */
    tasksVersion: text("tasks_version"),
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
  /** null means the plan has no end. */
  expiresAt: text("expires_at"),
  updatedAt: text("updated_at").notNull().default(nowSql),
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

export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    notes: text("notes"),
    listId: text("list_id"),
    due: text("due"),
    reminder: text("reminder"),
    repeat: text("repeat"),
    important: integer("important", { mode: "boolean" }).notNull().default(false),
    completed: integer("completed", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(nowSql),
    updatedAt: text("updated_at").notNull().default(nowSql),
    /** Tombstone: set on delete so sync clients learn about it through `since`. */
    deletedAt: text("deleted_at"),
    /**
     * The next occurrence this task's completion created (repeating tasks), so a retried completion
     * can return it again. Internal: not part of the Task shape.
     */
    nextId: text("next_id"),
  },
  (t) => [
    index("tasks_account_updated_idx").on(t.accountId, t.updatedAt, t.id),
    // Pages walk an account's tasks by id, a key that edits do not move.
    index("tasks_account_id_idx").on(t.accountId, t.id),
    // Only tombstones: the retention job's purge is its one reader, and live tasks (deleted_at NULL) need no
    // entry, which saves a b-tree write per create (node:sqlite, WAL: 45 → 37–41 µs per insert, 3 % smaller).
    index("tasks_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
  ],
);

export type TaskRow = typeof tasks.$inferSelect;

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
 * instead (src/domain/connections/service.ts), so a revocation holds on the very next request everywhere.
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
  },
  (t) => [
    uniqueIndex("oauth_connections_grant_unique").on(t.grantId),
    index("oauth_connections_account_idx").on(t.accountId),
  ],
);
