import { eq, sql } from "drizzle-orm";
import { nowSql } from "../domain/clock";
import { isAppError } from "../domain/errors";
import type { AccountChange, EndedSessions } from "./changes";
import type { AccountDb } from "./context";
import { accountRow, authorize, type TaskCredential } from "./credentials";
import { listLists } from "./lists/service";
import { failure } from "./result";
import { apiKeys } from "./schema";
import { listTasks, tasksOf } from "./tasks/list";
import type { Event } from "./webhooks/outbox";

/**
 * The account's live stream (docs/events.md, "The stream"): WebSockets accepted by the account's object
 * with the hibernation API, so an idle socket costs nothing and a ping never wakes the object (the
 * auto-response). Each committed change's events are sent to every open socket after its transaction.
 */

/** How many sockets an account may hold open; the next one closes the oldest (CLOSE.replaced). */
export const MAX_SOCKETS = 20;

/** The subprotocol the server selects; a client may offer its credential beside it (`todo.bearer.<token>`). */
export const STREAM_PROTOCOL = "todo.v1";

/** Close codes (4000–4999 are the application's), documented in docs/events.md. */
export const CLOSE = {
  /** The credential was revoked or expired (a key, a connection) or its session ended: connect again with a live one. */
  revoked: 4401,
  /** The account's Max membership lapsed. */
  maxLapsed: 4403,
  /** The `since` given to resume is older than the tombstones kept (410 sync_expired): list again. */
  syncExpired: 4410,
  /** A newer socket of the account took this one's place (more than MAX_SOCKETS). */
  replaced: 4409,
} as const;

/** What a socket remembers across hibernation (serializeAttachment): its credential, when it opened and lapses. */
interface Attachment {
  credential: TaskCredential;
  openedAt: number;
  /**
   * A key's expiry, or a session's as the upgrade saw it (ms): checked before each send, since no control-plane
   * change marks it. A session used since then has later days: its page, told 4401, syncs over REST and goes on.
   */
  expiresAt?: number;
}

/** The header the Worker passes the judged request's credential in (only the Worker can reach an object). */
export const CREDENTIAL_HEADER = "x-todo-credential";
/** The session's id, so its sockets carry their own tag (the Worker has judged the session). */
export const SESSION_HEADER = "x-todo-session";
/** When that session ends unless used again (RFC 3339), so that its sockets end with it. */
export const SESSION_EXPIRES_HEADER = "x-todo-session-expires";

/** The tag of a socket opened with a key (by its id), a connection, or a session. */
export const keyTag = (id: string) => `key:${id}`;
export const connectionTag = (id: string) => `connection:${id}`;
const sessionTag = (id: string) => `session:${id}`;

const serverTime = (db: AccountDb) => db.get<{ now: string }>(sql`SELECT ${nowSql} AS now`).now;

/** A problem as the Worker reads it back (a Result with its error), with the status for a log. */
const refusal = (e: unknown) => Response.json(failure(e), { status: isAppError(e) ? 400 : 500 });

/**
 * The upgrade the Worker forwarded (GET /api/v1/stream, /account/stream): the credential judged like any
 * verb's (401, then 403 without Max), then the socket accepted with its tag, the oldest closed past
 * MAX_SOCKETS, and, with `since`, what the client missed sent first.
 */
export function acceptStream(ctx: DurableObjectState, db: AccountDb, request: Request): Response {
  let attachment: Attachment;
  let tag: string;
  try {
    const credential = JSON.parse(request.headers.get(CREDENTIAL_HEADER) ?? "null") as TaskCredential;
    ({ attachment, tag } = ctx.storage.transactionSync(() => {
      authorize(db, credential, true);
      return tagOf(db, credential, request.headers);
    }));
  } catch (e) {
    return refusal(e);
  }
  const open = ctx.getWebSockets();
  const oldest = open.map((ws) => ({ ws, at: attachmentOf(ws)?.openedAt ?? 0 })).sort((a, b) => a.at - b.at);
  for (const { ws } of oldest.slice(0, Math.max(0, open.length - MAX_SOCKETS + 1)))
    close(ws, CLOSE.replaced, "More than 20 sockets are open for this account: this, the oldest, was closed.");
  const { 0: client, 1: server } = new WebSocketPair();
  ctx.acceptWebSocket(server, [tag]);
  server.serializeAttachment(attachment);
  const since = new URL(request.url).searchParams.get("since");
  if (since) resume(db, server, since);
  return new Response(null, { status: 101, webSocket: client, headers: { "Sec-WebSocket-Protocol": STREAM_PROTOCOL } });
}

function tagOf(db: AccountDb, credential: TaskCredential, headers: Headers): { attachment: Attachment; tag: string } {
  const attachment: Attachment = { credential, openedAt: Date.now() };
  if (credential.kind === "connection") return { attachment, tag: connectionTag(credential.connectionId) };
  if (credential.kind === "session") {
    const expiresAt = Date.parse(headers.get(SESSION_EXPIRES_HEADER) ?? "");
    if (Number.isFinite(expiresAt)) attachment.expiresAt = expiresAt;
    return { attachment, tag: sessionTag(headers.get(SESSION_HEADER) ?? "") };
  }
  const key = db
    .select({ id: apiKeys.id, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, credential.keyHash))
    .get()!;
  if (key.expiresAt) attachment.expiresAt = Date.parse(key.expiresAt);
  return { attachment, tag: keyTag(key.id) };
}

const attachmentOf = (ws: WebSocket) => ws.deserializeAttachment() as Attachment | null;

function close(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // Already closing: nothing left to tell it.
  }
}

/**
 * What a client missed since its last `serverTime`, by the `since` rules of GET /tasks and /lists: one
 * `sync` message with the tasks and lists changed and those deleted, or, for a `since` older than the
 * tombstones kept, an `error` message (410 sync_expired) and the close CLOSE.syncExpired.
 */
export function resume(db: AccountDb, ws: WebSocket, since: string): void {
  try {
    const timeZone = accountRow(db)?.timeZone ?? "UTC";
    const page = listTasks({ db, timeZone }, { since });
    const lists = listLists({ db, timeZone }, { since });
    const data = {
      tasks: tasksOf(page),
      deleted: page.deleted ?? [],
      lists: lists.lists,
      deletedLists: lists.deleted ?? [],
    };
    ws.send(JSON.stringify({ type: "sync", data, serverTime: page.serverTime }));
  } catch (e) {
    const error = failure(e);
    const problem = error.ok ? undefined : error.error;
    ws.send(JSON.stringify({ type: "error", data: problem, serverTime: serverTime(db) }));
    if (problem?.code === "sync_expired") close(ws, CLOSE.syncExpired, "sync_expired: list again without since.");
  }
}

/** A client's message: `{"type":"resume","since":…}` resumes; "ping" never reaches here (the auto-response). */
export function onMessage(db: AccountDb, ws: WebSocket, message: string | ArrayBuffer): void {
  let parsed: { type?: unknown; since?: unknown } | undefined;
  try {
    parsed = typeof message === "string" ? JSON.parse(message) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed?.type === "resume" && typeof parsed.since === "string") {
    const attachment = attachmentOf(ws);
    try {
      if (attachment) authorize(db, attachment.credential, true);
    } catch (e) {
      const lapsed = isAppError(e) && e.code === "max_required";
      close(ws, lapsed ? CLOSE.maxLapsed : CLOSE.revoked, lapsed ? e.detail : "The credential is no longer valid.");
      return;
    }
    resume(db, ws, parsed.since);
    return;
  }
  ws.send(
    JSON.stringify({
      type: "error",
      data: { code: "validation_failed", detail: 'Send {"type":"resume","since":"<serverTime>"} or "ping".' },
      serverTime: serverTime(db),
    }),
  );
}

/**
 * Sends a committed change's events to every open socket, each as `{ type, data, serverTime }`. Called
 * after the transaction returned, never from one rolled back. A lapsed Max closes every socket, a key
 * past its expiry its own.
 */
export function broadcast(ctx: DurableObjectState, db: AccountDb, events: readonly Event[]): void {
  if (events.length === 0) return;
  const sockets = ctx.getWebSockets();
  if (sockets.length === 0) return;
  if (!accountRow(db)?.maxActive) {
    closeAll(ctx, CLOSE.maxLapsed);
    return;
  }
  const time = serverTime(db);
  const messages = events.map(({ type, data }) => JSON.stringify({ type, data, serverTime: time }));
  const now = Date.now();
  for (const ws of sockets) {
    const attachment = attachmentOf(ws);
    if (attachment?.expiresAt !== undefined && attachment.expiresAt <= now) {
      const session = attachment.credential.kind === "session";
      close(ws, CLOSE.revoked, session ? "The session has expired: sign in again." : "The API key has expired.");
      continue;
    }
    for (const message of messages) ws.send(message);
  }
}

/** Closes the sockets with the tag (one key's, one connection's), or all of them, with `code`. */
export function closeAll(ctx: DurableObjectState, code: number, tag?: string): void {
  const reason = code === CLOSE.maxLapsed ? "Max membership is no longer active." : "The credential was revoked.";
  for (const ws of ctx.getWebSockets(tag)) close(ws, code, reason);
}

/** Erasure: every credential of the account is refused from now on, so every socket closes (CLOSE.revoked). */
export function closeErased(ctx: DurableObjectState): void {
  for (const ws of ctx.getWebSockets()) close(ws, CLOSE.revoked, "The account was erased.");
}

/**
 * After a control-plane change: a revoked key or connection, or an ended session, closes its sockets, a lapsed
 * Max all of them.
 */
export function afterChange(ctx: DurableObjectState, db: AccountDb, change: AccountChange): void {
  if (change.kind === "keyRevoked") closeAll(ctx, CLOSE.revoked, keyTag(change.id));
  if (change.kind === "sessionsEnded") closeSessions(ctx, change);
  const ended =
    change.kind === "connectionsRevoked" ? change.ids : change.kind === "connectionCreated" ? change.replaces : [];
  for (const id of ended) closeAll(ctx, CLOSE.revoked, connectionTag(id));
  if (change.kind === "membership" && !accountRow(db)?.maxActive) closeAll(ctx, CLOSE.maxLapsed);
}

/**
 * Closes the sockets of sessions that ended in D1 with CLOSE.revoked. "All" picks the sockets whose credential
 * is a session (their attachment, which every socket has had since the stream began, so no socket is missed
 * for lack of a newer tag), so a key's or a connection's stay open; only `keep`'s tag spares a socket.
 */
function closeSessions(ctx: DurableObjectState, ended: EndedSessions): void {
  const reason = "The session ended (signed out).";
  const sockets =
    "ids" in ended
      ? ended.ids.flatMap((id) => ctx.getWebSockets(sessionTag(id)))
      : ctx
          .getWebSockets()
          .filter(
            (ws) =>
              attachmentOf(ws)?.credential.kind === "session" &&
              (ended.keep === undefined || !ctx.getTags(ws).includes(sessionTag(ended.keep))),
          );
  for (const ws of sockets) close(ws, CLOSE.revoked, reason);
}
