import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../db";
import { recordSecurityEvent } from "../security-events";
import { recoveryCodes, totpFactors } from "../totp-schema";
import { nowSql } from "../schema";
import { randomBase62, sha256Hex } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { loadOtp } from "../../lazy/load";

/**
 * One-time codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app reads) as a second factor.
 * Turned on in two steps (a secret, then a first code confirms it and 10 recovery codes are shown once), asked at
 * every password sign-in from then on, and turned off with a code. The library loads on these paths only.
 */
const ISSUER = "Todo & Calendars";
const PERIOD = 30;
/** A code of the previous or next 30 s step is accepted too: phone clocks drift. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const wrongCode = () =>
  new AppError("invalid_credentials", "The code is wrong or was already used. Enter the current one from your app.", [
    { path: "code", message: "is wrong or already used" },
  ]);

async function totpOf(secret: string, email: string) {
  const { Secret, TOTP } = await loadOtp();
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

const factorOf = async (db: Db, accountId: string) =>
  (await db.select().from(totpFactors).where(eq(totpFactors.accountId, accountId)))[0];

export async function totpEnabled(db: Db, accountId: string): Promise<boolean> {
  return Boolean((await factorOf(db, accountId))?.enabledAt);
}

/** Step 1: a new secret (replacing one not yet confirmed). Refused while codes are on: turn them off first. */
export async function startTotp(db: Db, account: { id: string; email: string }) {
  if ((await factorOf(db, account.id))?.enabledAt) {
    throw new AppError("totp_enabled", "One-time codes are already on. Turn them off first to set up a new app.");
  }
  const { Secret } = await loadOtp();
  const secret = new Secret({ size: 20 }).base32;
  await db
    .insert(totpFactors)
    .values({ accountId: account.id, secret })
    .onConflictDoUpdate({
      target: totpFactors.accountId,
      set: { secret, enabledAt: null, lastStep: 0, createdAt: nowSql },
    });
  return { secret, otpauthUri: (await totpOf(secret, account.email)).toString() };
}

/** The 30 s step a code belongs to, or undefined when it matches none within the window. */
async function stepOf(secret: string, email: string, code: string, now = Date.now()): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = (await totpOf(secret, email)).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Step 2: the first code turns codes on and returns the recovery codes, shown only in this answer. */
export async function confirmTotp(db: Db, account: { id: string; email: string }, code: string): Promise<string[]> {
  const factor = await factorOf(db, account.id);
  if (!factor) throw new AppError("not_found", "Start with POST /account/totp: there is no secret to confirm.");
  if (factor.enabledAt) throw new AppError("totp_enabled", "One-time codes are already on.");
  const step = await stepOf(factor.secret, account.email, code.trim());
  if (step === undefined) throw wrongCode();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatRecoveryCode(randomBase62(10)));
  const rows = await Promise.all(
    codes.map(async (c) => ({ id: newId(), accountId: account.id, codeHash: await sha256Hex(normalizeRecovery(c)) })),
  );
  await db.batch([
    db.update(totpFactors).set({ enabledAt: nowSql, lastStep: step }).where(eq(totpFactors.accountId, account.id)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.accountId, account.id)),
    db.insert(recoveryCodes).values(rows),
    recordSecurityEvent(db, account.id, "totp_enabled"),
  ]);
  return codes;
}

const formatRecoveryCode = (raw: string) => `${raw.slice(0, 5)}-${raw.slice(5)}`.toLowerCase();
/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/**
 * The second factor of a password sign-in (and of turning codes off): nothing when codes are off; otherwise a
 * current code, each 30 s step once (a conditional UPDATE, so two requests with one code cannot both pass), or an
 * unused recovery code, once. `totp_required` (401) without one, `invalid_credentials` (401) for a wrong one.
 */
export async function checkSecondFactor(db: Db, account: { id: string; email: string }, code: string | undefined) {
  const factor = await factorOf(db, account.id);
  if (!factor?.enabledAt) return;
  if (!code?.trim()) {
    throw new AppError(
      "totp_required",
      "This account asks for a one-time code: send `code` from your authenticator app, or a recovery code.",
    );
  }
  const step = await stepOf(factor.secret, account.email, code.trim());
  if (step !== undefined) {
    const used = await db
      .update(totpFactors)
      .set({ lastStep: step })
      .where(and(eq(totpFactors.accountId, account.id), lt(totpFactors.lastStep, step)))
      .returning({ step: totpFactors.lastStep });
    if (used.length === 1) return;
    throw wrongCode();
  }
  const recovery = await db
    .update(recoveryCodes)
    .set({ usedAt: nowSql })
    .where(
      and(
        eq(recoveryCodes.accountId, account.id),
        eq(recoveryCodes.codeHash, await sha256Hex(normalizeRecovery(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  if (recovery.length !== 1) throw wrongCode();
}

/** Turning codes off needs a code (or a recovery code), as a sign-in would. */
export async function disableTotp(db: Db, account: { id: string; email: string }, code: string) {
  if (!(await totpEnabled(db, account.id))) throw new AppError("not_found", "One-time codes are off for this account.");
  await checkSecondFactor(db, account, code);
  await db.batch([
    db.delete(totpFactors).where(eq(totpFactors.accountId, account.id)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.accountId, account.id)),
    recordSecurityEvent(db, account.id, "totp_disabled"),
  ]);
}
