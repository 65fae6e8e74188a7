import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../db";
import { passkeys } from "../passkey-schema";
import { nowSql } from "../schema";
import { recordSecurityEvent } from "../security-events";
import { fromBase64url, toBase64url } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { loadWebAuthn } from "../../lazy/load";
import { type Purpose, storeChallenge, takeChallenge } from "./passkey-challenges";

/**
 * Passkeys (WebAuthn, by `@simplewebauthn/server`, loaded on these paths only): registered from a session,
 * used for a usernameless sign-in and for "confirm it's you". User verification (the device's PIN or biometric)
 * is required in every ceremony, so a passkey is two factors in itself: what one has and what one knows or is.
 */
export interface RelyingParty {
  /** The public origin's hostname (transport/public-origin.ts): passkeys are bound to it. */
  id: string;
  /** The public origin, which the browser's clientDataJSON must name exactly. */
  origin: string;
}

export const relyingParty = (origin: string): RelyingParty => ({ id: new URL(origin).hostname, origin });

const RP_NAME = "Todo & Calendars";
export const PASSKEY_LIMIT = 20;

/** The WebAuthn user handle: the account id's bytes, which the authenticator hands back at sign-in. */
const userHandle = (accountId: string) => new Uint8Array(new TextEncoder().encode(accountId));

const summary = {
  id: passkeys.id,
  name: passkeys.name,
  createdAt: passkeys.createdAt,
  lastUsedAt: passkeys.lastUsedAt,
};
export type PasskeySummary = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

export const listPasskeys = (db: Db, accountId: string): Promise<PasskeySummary[]> =>
  db.select(summary).from(passkeys).where(eq(passkeys.accountId, accountId)).orderBy(asc(passkeys.createdAt));

const ownRows = (db: Db, accountId: string) =>
  db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.accountId, accountId));

const hints = (rows: { id: string; transports: string }[]) =>
  rows.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as string[] }));

/** Options for navigator.credentials.create(): a discoverable credential, the account's own passkeys excluded. */
export async function registrationOptions(db: Db, rp: RelyingParty, account: { id: string; email: string }) {
  const { generateRegistrationOptions } = await loadWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: account.email,
    userID: userHandle(account.id),
    attestationType: "none",
    excludeCredentials: hints(await ownRows(db, account.id)),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(db, options.challenge, "register", account.id);
  return options;
}

const refused = (path: string, message: string) =>
  new AppError("validation_failed", `The passkey was not registered: ${message}`, [{ path, message }]);

/** Verifies the browser's answer to registrationOptions (its challenge once) and stores the passkey. */
export async function addPasskey(
  db: Db,
  rp: RelyingParty,
  accountId: string,
  input: { name: string; response: RegistrationResponseJSON },
): Promise<PasskeySummary> {
  const [held] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.accountId, accountId));
  if ((held?.n ?? 0) >= PASSKEY_LIMIT) {
    throw new AppError("passkey_limit_reached", `An account has at most ${PASSKEY_LIMIT} passkeys. Remove one first.`);
  }
  const { verifyRegistrationResponse } = await loadWebAuthn();
  const result = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: (challenge) => takeChallenge(db, challenge, "register", accountId),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((e: unknown) => {
    throw refused("response", e instanceof Error ? e.message : "it could not be verified");
  });
  if (!result.verified) throw refused("response", "it could not be verified");
  const { credential } = result.registrationInfo;
  const row = {
    id: credential.id,
    accountId,
    name: input.name,
    publicKey: toBase64url(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
  };
  const [added] = await db.insert(passkeys).values(row).onConflictDoNothing().returning(summary);
  if (!added) throw refused("response.id", "this passkey is already registered");
  await recordSecurityEvent(db, accountId, "passkey_added", { name: input.name });
  return added;
}

export async function renamePasskey(db: Db, accountId: string, id: string, name: string): Promise<PasskeySummary> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)))
    .returning(summary);
  if (!row) throw notFound();
  return row;
}

export async function removePasskey(db: Db, accountId: string, id: string): Promise<void> {
  const gone = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)))
    .returning({ id: passkeys.id, name: passkeys.name });
  if (gone.length === 0) throw notFound();
  await recordSecurityEvent(db, accountId, "passkey_removed", { name: gone[0]!.name });
}

const notFound = () => new AppError("not_found", "No passkey with this id in your account: see GET /account/passkeys.");

/**
 * Options for navigator.credentials.get(): for sign-in none are named (the browser offers every passkey for this
 * site: usernameless, and conditional UI); to confirm it's you, the session's account's own.
 */
export async function assertionOptions(db: Db, rp: RelyingParty, accountId: string | null) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: accountId === null ? [] : hints(await ownRows(db, accountId)),
  });
  await storeChallenge(db, options.challenge, accountId === null ? "sign_in" : "confirm", accountId);
  return options;
}

const unknownPasskey = () =>
  new AppError("invalid_credentials", "This passkey could not be verified, or is not registered here.");

/**
 * The account an assertion proves, taking its challenge once and raising the stored counter. Any failure is the
 * same 401, whether the passkey is unknown, foreign, replayed, cloned or signed for another origin.
 */
export async function verifyAssertion(
  db: Db,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  purpose: Extract<Purpose, "sign_in" | "confirm">,
  accountId: string | null,
): Promise<string> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.id, response.id));
  if (!row || (accountId !== null && row.accountId !== accountId)) throw unknownPasskey();
  const handle = response.response.userHandle;
  if (handle && handle !== toBase64url(userHandle(row.accountId))) throw unknownPasskey();
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: (challenge) => takeChallenge(db, challenge, purpose, accountId),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: row.id, publicKey: fromBase64url(row.publicKey), counter: row.counter },
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!result?.verified) throw unknownPasskey();
  // The counter only rises (the library refused a lower one); the conditional write refuses a concurrent twin.
  const { newCounter } = result.authenticationInfo;
  const moved = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: nowSql })
    .where(and(eq(passkeys.id, row.id), eq(passkeys.counter, row.counter)))
    .returning({ id: passkeys.id });
  if (moved.length !== 1) throw unknownPasskey();
  return row.accountId;
}
