import { isNotNull, lte, or, sql } from "drizzle-orm";
import { billingEvents } from "./billing-schema";
import { emailTokens } from "./email-schema";
import type { Db } from "./db";
import { nowSql, sessions } from "./schema";
import { SECURITY_EVENT_DAYS } from "./security-events";
import { securityEvents } from "./security-events-schema";

/** Processed Stripe event ids are kept this long: Stripe retries an event for up to 3 days. */
export const BILLING_EVENT_DAYS = 30;

/** Rows deleted per statement, so one run never holds the database for long. */
const CHUNK = 5_000;
const MAX_ROUNDS = 20;

export interface ControlPlanePurge {
  sessions: number;
  billingEvents: number;
  emailTokens: number;
  securityEvents: number;
}

/**
 * The daily job's part in D1 (Cron Trigger): expired or revoked sessions, and Stripe event ids past
 * Stripe's retries (an older event replayed after that is still refused by its subscription's ordering), and mailed
 * links a day after they expired (a used one expires too: its row only has to outlive the link), and security events
 * after 90 days.
 * In chunks until done.
 */
export async function purgeControlPlane(db: Db): Promise<ControlPlanePurge> {
  const total: ControlPlanePurge = { sessions: 0, billingEvents: 0, emailTokens: 0, securityEvents: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // `rowid IN (… LIMIT n)` in raw SQL: Drizzle has no DELETE … LIMIT, and chunks keep each statement short.
    const [expiredSessions, events, links, audit] = await db.batch([
      db.delete(sessions).where(sql`rowid IN (SELECT rowid FROM ${sessions}
        WHERE ${or(lte(sessions.expiresAt, nowSql), isNotNull(sessions.revokedAt))} LIMIT ${CHUNK})`),
      db.delete(billingEvents).where(sql`rowid IN (SELECT rowid FROM ${billingEvents} WHERE ${billingEvents.receivedAt}
        < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${BILLING_EVENT_DAYS} days`}) LIMIT ${CHUNK})`),
      db.delete(emailTokens).where(sql`rowid IN (SELECT rowid FROM ${emailTokens} WHERE ${emailTokens.expiresAt}
        < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') LIMIT ${CHUNK})`),
      db.delete(securityEvents).where(sql`rowid IN (SELECT rowid FROM ${securityEvents} WHERE ${securityEvents.at}
        < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${SECURITY_EVENT_DAYS} days`}) LIMIT ${CHUNK})`),
    ]);
    const counts = [expiredSessions, events, links, audit].map((r) => r.meta.changes ?? 0);
    total.sessions += counts[0]!;
    total.billingEvents += counts[1]!;
    total.emailTokens += counts[2]!;
    total.securityEvents += counts[3]!;
    if (counts.every((n) => n < CHUNK)) break;
  }
  return total;
}
