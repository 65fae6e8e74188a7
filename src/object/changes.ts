import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { nowSql } from "../domain/clock";
import type { AccountDb } from "./context";
import { account, apiKeys, connections } from "./schema";
import {
  applyEmailChange,
  applyMailSettings,
  type MailSettingsChange,
  rescheduleDigest,
  stopMail,
} from "./mail/settings";

/** A change the control plane (D1) makes to what task requests judge; applied on the next request. */
export type AccountChange =
  | { kind: "membership"; plan: "free" | "max"; expiresAt: string | null }
  | { kind: "timeZone"; timeZone: string }
  | { kind: "keyCreated"; id: string; keyHash: string; expiresAt: string | null }
  | { kind: "keyRevoked"; id: string }
  | { kind: "connectionCreated"; id: string; replaces: string[] }
  | { kind: "connectionsRevoked"; ids: string[] }
  | { kind: "connectionGeneration"; id: string; generation: number }
  | ({ kind: "sessionsEnded" } & EndedSessions)
  | MailSettingsChange
  | { kind: "email"; email: string }
  | { kind: "stopMail" };

/**
 * Sessions ended in D1 (sign-out, one ended from the list, sign out everywhere, a password change or reset):
 * the object keeps no session, so nothing is written; their sockets on the live stream close (stream.ts).
 * `ids`: those sessions; `all`: every session's socket, but those of `keep` (the session that changed the password).
 */
export type EndedSessions = { ids: string[] } | { all: true; keep?: string };

/** Writes a control-plane change into the object, inside the transaction of `AccountObject.change`. */
export function applyChange(db: AccountDb, change: AccountChange): void {
  switch (change.kind) {
    case "membership":
      db.update(account).set({ plan: change.plan, planExpiresAt: change.expiresAt }).run();
      return;
    case "timeZone":
      db.update(account).set({ timeZone: change.timeZone }).run();
      rescheduleDigest(db, change.timeZone);
      return;
    case "mailSettings":
      applyMailSettings(db, change);
      return;
    case "email":
      applyEmailChange(db, change.email);
      return;
    case "stopMail":
      stopMail(db);
      return;
    case "keyCreated":
      db.insert(apiKeys)
        .values({ id: change.id, keyHash: change.keyHash, expiresAt: change.expiresAt })
        .onConflictDoNothing()
        .run();
      return;
    case "keyRevoked":
      db.update(apiKeys)
        .set({ revokedAt: nowSql })
        .where(and(eq(apiKeys.id, change.id), isNull(apiKeys.revokedAt)))
        .run();
      return;
    case "connectionCreated":
      db.insert(connections).values({ id: change.id }).onConflictDoNothing().run();
      revokeConnections(db, change.replaces);
      return;
    case "connectionsRevoked":
      revokeConnections(db, change.ids);
      return;
    case "connectionGeneration":
      db.update(connections)
        .set({ liveGeneration: sql`max(${connections.liveGeneration}, ${change.generation})` })
        .where(eq(connections.id, change.id))
        .run();
      return;
    case "sessionsEnded":
      return;
  }
}

function revokeConnections(db: AccountDb, ids: string[]) {
  if (ids.length === 0) return;
  db.update(connections)
    .set({ revokedAt: nowSql })
    .where(and(inArray(connections.id, ids), isNull(connections.revokedAt)))
    .run();
}
