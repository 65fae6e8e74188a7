import { and, desc, eq, gt, sql } from "drizzle-orm";
import { newId } from "../domain/ids";
import type { Db } from "./db";
import { securityEvents } from "./security-events-schema";

/**
 * The audit trail a person sees (issue 36 item 8): sign-ins with their device, password and email changes,
 * one-time codes and passkeys turned on or off, resets, sessions ended, new OAuth connections. Kept
 * SECURITY_EVENT_DAYS (retention.ts), listed on the account page and in the export.
 */
export const SECURITY_EVENT_TYPES = [
  "signed_up",
  "signed_in",
  "password_changed",
  "password_reset",
  "email_change_requested",
  "email_changed",
  "totp_enabled",
  "totp_disabled",
  "passkey_added",
  "passkey_removed",
  "session_ended",
  "signed_out_everywhere",
  "oauth_connected",
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export const SECURITY_EVENT_DAYS = 90;

/** What an event may carry: the device (a User-Agent, cut short) and a few facts, never a secret. */
export type SecurityEventFacts = { [fact: string]: string | number | boolean | null | undefined };

/**
 * The insert of one event, not yet run: await it, or put it in the caller's `db.batch` so the event lands
 * with the change it records. The passkeys routes call it too ("passkey_added", "passkey_removed").
 */
export function recordSecurityEvent(
  db: Db,
  accountId: string,
  type: SecurityEventType,
  facts: SecurityEventFacts = {},
) {
  const { device, ...rest } = facts;
  const detail = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return db.insert(securityEvents).values({
    id: newId(),
    accountId,
    type,
    // Cut short like a session's User-Agent (accounts/sessions.ts): the client's own text.
    device: typeof device === "string" && device ? device.slice(0, 256) : null,
    detail: Object.keys(detail).length ? JSON.stringify(detail) : null,
  });
}

/** One event as the API shows it: its facts (a sign-in's `method`, …) beside type, time and `device` (if known). */
export type SecurityEventView = { type: string; at: string } & Record<string, string | number | boolean | null>;

const since = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${SECURITY_EVENT_DAYS} days`})`;

/** The account's events of the last 90 days, newest first (at most `limit`). */
export async function listSecurityEvents(db: Db, accountId: string, limit = 200): Promise<SecurityEventView[]> {
  const rows = await db
    .select({
      type: securityEvents.type,
      at: securityEvents.at,
      device: securityEvents.device,
      detail: securityEvents.detail,
    })
    .from(securityEvents)
    .where(and(eq(securityEvents.accountId, accountId), gt(securityEvents.at, since)))
    .orderBy(desc(securityEvents.at), desc(securityEvents.id))
    .limit(limit);
  return rows.map(({ type, at, device, detail }) => ({
    ...(detail ? (JSON.parse(detail) as Record<string, string | number | boolean | null>) : {}),
    type,
    at,
    ...(device ? { device } : {}),
  }));
}
