import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "../db";
import { webauthnChallenges } from "../passkey-schema";
import { nowSql } from "../schema";

/**
 * The challenges of passkey ceremonies, kept in D1 rather than in a signed token: a signed challenge could be
 * answered twice until it expired, and many passkeys keep their signature counter at 0, so the counter would not
 * catch the second answer. A stored challenge is deleted by the one verification that takes it.
 */
export type Purpose = (typeof webauthnChallenges.$inferInsert)["purpose"];

/** Long enough to find the phone and touch the sensor; the browser's own timeout (options.timeout) is 60 s. */
const CHALLENGE_MINUTES = 5;

/** Stores a challenge handed out with options, sweeping expired ones in the same batch (the index keeps it cheap). */
export async function storeChallenge(db: Db, challenge: string, purpose: Purpose, accountId: string | null) {
  const expiresAt = new Date(Date.now() + CHALLENGE_MINUTES * 60_000).toISOString();
  await db.batch([
    db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, nowSql)),
    db.insert(webauthnChallenges).values({ challenge, purpose, accountId, expiresAt }),
  ]);
}

/**
 * Takes (deletes) a live challenge of this purpose and account: true once, false for an unknown, expired, used or
 * foreign one. Given to the library as `expectedChallenge`, so it runs on the challenge the client signed.
 */
export async function takeChallenge(db: Db, challenge: string, purpose: Purpose, accountId: string | null) {
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        accountId === null ? isNull(webauthnChallenges.accountId) : eq(webauthnChallenges.accountId, accountId),
        gt(webauthnChallenges.expiresAt, nowSql),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length === 1;
}
