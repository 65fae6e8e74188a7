import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { changeAccount, reachAccount } from "../account-client";
import type { Db } from "../db";
import { recordSecurityEvent } from "../security-events";
import { nowSql, oauthConnections } from "../schema";
import { AppError, isAppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { plainClientName } from "./client-name";

/**
 * Connections: the apps a person allowed on the consent page (OAuth grants), as D1 rows. The grant and
 * its tokens live in the OAuth provider's KV; whether the grant still holds is decided by the account's
 * object on every OAuth request to /mcp (src/object/credentials.ts), and by this row on every refresh.
 * Both are written on every revocation, the object first, so it holds on the very next request.
 */

/** A grant lives while its client refreshes at least this often (the provider's idle TTL, provider.ts). */
export const CONNECTION_IDLE_DAYS = 30;

export interface ConnectionSummary {
  id: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewConnection {
  id: string;
  accountId: string;
  grantId: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  scopes: string[];
}

/** A client's name is its own text: kept short so a row stays small. */
export const MAX_CLIENT_NAME = 200;

export const newConnectionId = newId;

/** Whether a client_id is a Client ID Metadata Document URL (shared by every installation of that app). */
const isDocumentClient = (clientId: string) => /^https:\/\//i.test(clientId);

/**
 * Stores a connection, and ends the account's earlier ones for the same client the way the provider's
 * completeAuthorization() ends their grants: the same client, and for a metadata-document client the
 * same redirect URI (each installation of such an app is its own connection). One batch.
 */
export async function createConnection(db: Db, env: Env, input: NewConnection): Promise<void> {
  const same = and(
    eq(oauthConnections.accountId, input.accountId),
    eq(oauthConnections.clientId, input.clientId),
    isNull(oauthConnections.revokedAt),
    ne(oauthConnections.id, input.id),
    isDocumentClient(input.clientId) ? eq(oauthConnections.redirectUri, input.redirectUri) : undefined,
  );
  const replaced = await db.select({ id: oauthConnections.id }).from(oauthConnections).where(same);
  // The account's object judges every OAuth request: it learns of the connection (and the ones it
  // replaces) before the client gets a token.
  await changeAccount(env, input.accountId, {
    kind: "connectionCreated",
    id: input.id,
    replaces: replaced.map((row) => row.id),
  });
  await db.batch([
    db.update(oauthConnections).set({ revokedAt: nowSql }).where(same),
    db.insert(oauthConnections).values({
      id: input.id,
      accountId: input.accountId,
      grantId: input.grantId,
      clientId: input.clientId,
      clientName: (plainClientName(input.clientName) || input.clientId).slice(0, MAX_CLIENT_NAME),
      redirectUri: input.redirectUri,
      scopes: input.scopes.join(" "),
    }),
    recordSecurityEvent(db, input.accountId, "oauth_connected", {
      app: (plainClientName(input.clientName) || input.clientId).slice(0, MAX_CLIENT_NAME),
    }),
  ]);
}

const hostOf = (uri: string) => {
  try {
    return new URL(uri).hostname;
  } catch {
    return uri;
  }
};

/**
 * Live: not revoked, and used (or created) within the idle lifetime of its grant. A SQL fragment:
 * Drizzle has no builder for `coalesce` or for `strftime` with a modifier (the database clock).
 */
const liveSql = sql`${oauthConnections.revokedAt} IS NULL AND coalesce(${oauthConnections.lastUsedAt}, ${oauthConnections.createdAt}) > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${CONNECTION_IDLE_DAYS} days`})`;

/** The account's live connections, newest first, each with when its object last saw it used. */
export async function listConnections(db: Db, env: Env, accountId: string): Promise<ConnectionSummary[]> {
  const [rows, usage] = await Promise.all([
    db
      .select({
        id: oauthConnections.id,
        clientName: oauthConnections.clientName,
        redirectUri: oauthConnections.redirectUri,
        scopes: oauthConnections.scopes,
        createdAt: oauthConnections.createdAt,
        lastUsedAt: oauthConnections.lastUsedAt,
      })
      .from(oauthConnections)
      .where(and(eq(oauthConnections.accountId, accountId), liveSql))
      .orderBy(desc(oauthConnections.createdAt), desc(oauthConnections.id)),
    reachAccount(env, accountId, (object) => object.usage()),
  ]);
  const used = new Map(usage.connections.map((connection) => [connection.id, connection.lastUsedAt]));
  return rows.map(({ redirectUri, scopes, ...row }) => ({
    ...row,
    lastUsedAt: latest(used.get(row.id), row.lastUsedAt),
    redirectHost: hostOf(redirectUri),
    scopes: scopes.split(" ").filter(Boolean),
  }));
}

/** The later of two optional timestamps (a refresh writes D1, an MCP request the object). */
const latest = (a: string | null | undefined, b: string | null) => (a && (!b || a > b) ? a : b);

/**
 * Revokes one of the account's connections: from this write on, its access and refresh tokens are
 * refused everywhere. Returns the grant id, for the provider's own KV clean-up. Another account's (or
 * an already revoked) connection is not found.
 */
export async function revokeConnection(db: Db, env: Env, accountId: string, id: string): Promise<{ grantId: string }> {
  const live = and(eq(oauthConnections.id, id), eq(oauthConnections.accountId, accountId), liveSql);
  const [row] = await db.select({ grantId: oauthConnections.grantId }).from(oauthConnections).where(live);
  if (!row) throw new AppError("not_found", "No active connection with this id.");
  // The object first: it judges every OAuth request to /mcp, so the connection ends there.
  await changeAccount(env, accountId, { kind: "connectionsRevoked", ids: [id] });
  await db.update(oauthConnections).set({ revokedAt: nowSql }).where(live);
  return row;
}

/**
 * Revokes the connection of a grant, if it is still live: its client revoked the grant itself (RFC 7009),
 * replayed its authorization code, or reused a replaced refresh token. Through revokeConnection, as
 * every revocation (the account's object first, then D1). Returns whether a live connection ended.
 */
export async function revokeConnectionOfGrant(db: Db, env: Env, accountId: string, grantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: oauthConnections.id })
    .from(oauthConnections)
    .where(and(eq(oauthConnections.grantId, grantId), eq(oauthConnections.accountId, accountId), liveSql));
  if (!row) return false;
  return revokeConnection(db, env, accountId, row.id).then(
    () => true,
    (e) => (isAppError(e) && e.code === "not_found" ? false : Promise.reject(e)),
  );
}

/**
 * Revokes every live connection of the account (a password change ends them, as it ends the other
 * sessions), each through revokeConnection. Returns their grant ids, for the provider's KV clean-up.
 */
export async function revokeAllConnections(db: Db, env: Env, accountId: string): Promise<string[]> {
  const live = await db
    .select({ id: oauthConnections.id })
    .from(oauthConnections)
    .where(and(eq(oauthConnections.accountId, accountId), liveSql));
  const ended = await Promise.all(
    live.map(({ id }) =>
      revokeConnection(db, env, accountId, id).catch((e) => (isAppError(e) ? undefined : Promise.reject(e))),
    ),
  );
  return ended.flatMap((row) => (row ? [row.grantId] : []));
}

export interface ConnectionRecord extends ConnectionSummary {
  clientId: string;
  revokedAt: string | null;
}

/** Every connection the account ever made, revoked ones too, for the account export: never a grant id or token. */
export async function exportConnections(db: Db, accountId: string): Promise<ConnectionRecord[]> {
  const rows = await db
    .select({
      id: oauthConnections.id,
      clientName: oauthConnections.clientName,
      clientId: oauthConnections.clientId,
      redirectUri: oauthConnections.redirectUri,
      scopes: oauthConnections.scopes,
      createdAt: oauthConnections.createdAt,
      lastUsedAt: oauthConnections.lastUsedAt,
      revokedAt: oauthConnections.revokedAt,
    })
    .from(oauthConnections)
    .where(eq(oauthConnections.accountId, accountId))
    .orderBy(desc(oauthConnections.createdAt), desc(oauthConnections.id));
  return rows.map(({ redirectUri, scopes, ...row }) => ({
    ...row,
    redirectHost: hostOf(redirectUri),
    scopes: scopes.split(" ").filter(Boolean),
  }));
}

/**
 * A token refresh (or the code exchange) for this connection: one statement that both records the use
 * and says whether the connection still holds, with the refresh count the new access token carries
 * (refresh-tokens.ts). Undefined: refuse the refresh (revoked or erased).
 */
export async function useConnectionForRefresh(
  db: Db,
  accountId: string,
  id: string,
): Promise<{ generation: number } | undefined> {
  const [row] = await db
    .update(oauthConnections)
    .set({ lastUsedAt: nowSql })
    .where(
      and(eq(oauthConnections.id, id), eq(oauthConnections.accountId, accountId), isNull(oauthConnections.revokedAt)),
    )
    .returning({ generation: oauthConnections.refreshGeneration });
  return row;
}
