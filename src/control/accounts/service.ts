import { and, eq, gt, isNull } from "drizzle-orm";
import { changeAccount, initAccount } from "../account-client";
import type { Db } from "../db";
import { accounts, memberships, nowSql, sessions } from "../schema";
import { totpFactors } from "../totp-schema";
import { randomBase62, sha256Hex } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { type DataLocation, newAccountId } from "../../domain/data-location";
import { type DeviceSigner, deviceNonce, isLiveDeviceToken, issueDeviceToken } from "./device";
import { activeMaxSql, setMembership, toMembership, type Membership } from "./membership";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./password";
import { closeSessionSockets, cutUserAgent, staleSessionSql, touchSession } from "./sessions";
import { checkSecondFactor } from "./totp";
import { recordSecurityEvent } from "../security-events";

const SESSION_PREFIX = "todo_sess_";
/** A session lives this long after it was last refreshed (sessions.ts `touchSession`): 30 days sliding. */
export const SESSION_DAYS = 30;

export interface AccountView {
  id: string;
  email: string;
  timeZone: string;
  /** Where the account's data lives, chosen at sign-up (domain/data-location.ts). */
  dataLocation: DataLocation;
  membership: Membership;
  createdAt: string;
  /** Proven by a mailed link (verification.ts). */
  emailVerified: boolean;
  /** Sign-in asks for a one-time code (totp.ts). */
  totpEnabled: boolean;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A new session token and the (not yet executed) inserts that store only its hash and record the sign-in,
 * with its device, in the account's security events.
 */
async function newSession(db: Db, accountId: string, client: ClientInfo, type: "signed_up" | "signed_in") {
  const token = SESSION_PREFIX + randomBase62(43);
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000).toISOString();
  const insert = db.insert(sessions).values({
    id: newId(),
    accountId,
    tokenHash: await sha256Hex(token),
    expiresAt,
    lastUsedAt: nowSql,
    userAgent: cutUserAgent(client.userAgent),
  });
  const event = recordSecurityEvent(db, accountId, type, { device: client.userAgent, method: client.method });
  return { token, inserts: [insert, event] as const };
}

/** A new session: its token, the account, and a device token for the client's next sign-in (device.ts). */
export interface SignedIn {
  token: string;
  account: AccountView;
  deviceToken: string;
}

/** The request a session starts from: only its User-Agent is kept, to tell sessions apart. */
export interface ClientInfo {
  userAgent?: string | null;
  /** How the person proved it was them, for the security events ("password" unless said). */
  method?: "password" | "passkey";
}

export async function signUp(
  db: Db,
  env: Env,
  input: { email: string; password: string; dataLocation?: DataLocation },
  client: ClientInfo = {},
): Promise<SignedIn> {
  return signUpWithPasswordHash(
    db,
    env,
    { email: input.email, passwordHash: await hashPassword(input.password), dataLocation: input.dataLocation },
    client,
  );
}

/**
 * Sign-up once the password is hashed. Only signUp and the tests' seeding (test/support/seed.ts) call
 * it: tests derive one hash for all their accounts instead of 100,000 PBKDF2 iterations each.
 */
export async function signUpWithPasswordHash(
  db: Db,
  env: Env,
  input: { email: string; passwordHash: string; dataLocation?: DataLocation },
  client: ClientInfo = {},
): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  const dataLocation = input.dataLocation ?? "global";
  // The id carries the location, so every credential that names the account reaches its object directly.
  const id = newAccountId(dataLocation);
  const { passwordHash } = input;
  const session = await newSession(db, id, { method: "password", ...client }, "signed_up");
  const fresh = { plan: "free", timeZone: "UTC" } as const;
  // The account's object first, as for every write a task request judges: made by this request, so it
  // lives near the person who signed up (or in the EU jurisdiction), with its account row from the sign-up
  // (no D1 read, no move).
  // If D1's batch then fails (the email is taken), the object stays, unreachable: its id is new and
  // nothing names it.
  await initAccount(env, { id, ...fresh });
  try {
    // Account, its free membership and the first session land together or not at all.
    await db.batch([
      db.insert(accounts).values({ id, email, passwordHash, timeZone: fresh.timeZone, dataLocation }),
      db.insert(memberships).values({ accountId: id, plan: fresh.plan }),
      ...session.inserts,
    ]);
  } catch (e) {
    if (String((e as Error)?.message ?? e).includes("UNIQUE")) {
      throw new AppError("email_taken", "An account with this email already exists. Sign in instead.", [
        { path: "email", message: "already registered" },
      ]);
    }
    throw e;
  }
  return {
    token: session.token,
    account: (await getAccount(db, id))!,
    deviceToken: await issueDeviceToken({ id, passwordHash }),
  };
}

const INVALID_LOGIN = "Email or password is incorrect.";

const signerOf = async (db: Db, email: string): Promise<DeviceSigner | undefined> =>
  (
    await db
      .select({ id: accounts.id, passwordHash: accounts.passwordHash })
      .from(accounts)
      .where(eq(accounts.email, normalizeEmail(email)))
  )[0];

/**
 * The account these credentials belong to, or `invalid_credentials`: the password check of sign-in,
 * without a session (the OAuth authorize page signs in for one consent only).
 */
export async function verifyCredentials(db: Db, input: { email: string; password: string }): Promise<DeviceSigner> {
  const row = await signerOf(db, input.email);
  // Verify even for unknown emails so the response time does not reveal which exist.
  const ok = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!row || !ok) throw new AppError("invalid_credentials", INVALID_LOGIN);
  return row;
}

export async function logIn(
  db: Db,
  input: { email: string; password: string; code?: string },
  client: ClientInfo = {},
): Promise<SignedIn> {
  const row = await verifyCredentials(db, input);
  // The second factor, when the account has one, before any session exists (totp.ts).
  await checkSecondFactor(db, { id: row.id, email: normalizeEmail(input.email) }, input.code);
  return startSession(db, row, { method: "password", ...client });
}

/**
 * The session of a sign-in whose credentials were judged: the password's (logIn) or a passkey's (passkeys.ts),
 * with the sign-in and its device in the security events. The page's cookie is set by the route
 * (transport/session-cookie.ts `offerSessionCookie`).
 */
export async function startSession(db: Db, signer: DeviceSigner, client: ClientInfo = {}): Promise<SignedIn> {
  const session = await newSession(db, signer.id, client, "signed_in");
  await db.batch(session.inserts);
  return {
    token: session.token,
    account: (await getAccount(db, signer.id))!,
    deviceToken: await issueDeviceToken(signer),
  };
}

/** The nonce of a live device token that this email's account issued; undefined for any other. */
export async function knownDevice(db: Db, email: string, deviceToken: string): Promise<string | undefined> {
  if (!isLiveDeviceToken(deviceToken)) return undefined;
  const account = await signerOf(db, email);
  return account && deviceNonce(account, deviceToken);
}

const SESSION_REQUIRED =
  "Sign in first: send `Authorization: Bearer <session token>` from POST /auth/login (the pages use its cookie).";

/** Session tokens are accepted only by /auth and /account routes; API keys are refused here and vice versa. */
export interface SessionAuthentication {
  accountId: string;
  sessionId: string;
  /** When the session ends unless used again (RFC 3339 UTC): a stream socket it opens closes then (object/stream.ts). */
  expiresAt: string;
  /** Set when lastUsedAt is over a minute old: refresh it (and its 30 days) off the response path. */
  touch?: () => Promise<unknown>;
}

export async function authenticateSession(db: Db, token: string | undefined): Promise<SessionAuthentication> {
  if (!token || !/^todo_sess_[0-9A-Za-z]{43}$/.test(token)) throw new AppError("unauthorized", SESSION_REQUIRED);
  const [row] = await db
    .select({
      accountId: sessions.accountId,
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      stale: staleSessionSql,
    })
    .from(sessions)
    .where(
      and(eq(sessions.tokenHash, await sha256Hex(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, nowSql)),
    );
  if (!row) throw new AppError("unauthorized", SESSION_REQUIRED);
  const { stale, ...session } = row;
  if (!stale) return session;
  // The touch starts its days again: the request acts on the expiry it sets.
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000).toISOString();
  return { ...session, expiresAt, touch: () => touchSession(db, session.sessionId, SESSION_DAYS) };
}

/** Signs the session out: its token is refused from the next request on, and its open sockets close. */
export async function logOut(db: Db, env: Env, accountId: string, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: nowSql }).where(eq(sessions.id, sessionId));
  await closeSessionSockets(env, accountId, { ids: [sessionId] });
}

export async function getAccount(db: Db, accountId: string): Promise<AccountView | undefined> {
  const row = await db
    .select({
      id: accounts.id,
      email: accounts.email,
      timeZone: accounts.timeZone,
      createdAt: accounts.createdAt,
      emailVerifiedAt: accounts.emailVerifiedAt,
      totpEnabledAt: totpFactors.enabledAt,
      dataLocation: accounts.dataLocation,
      plan: memberships.plan,
      expiresAt: memberships.expiresAt,
      active: activeMaxSql,
    })
    .from(accounts)
    .leftJoin(memberships, eq(memberships.accountId, accounts.id))
    .leftJoin(totpFactors, eq(totpFactors.accountId, accounts.id))
    .where(eq(accounts.id, accountId))
    .get();
  if (!row) return undefined;
  const { id, email, timeZone, createdAt, dataLocation } = row;
  return {
    id,
    email,
    timeZone,
    dataLocation,
    membership: toMembership(row),
    createdAt,
    emailVerified: row.emailVerifiedAt !== null,
    totpEnabled: Boolean(row.totpEnabledAt),
  };
}

/** The time zone recurrences use: the account's object computes them, so it is told first. */
export async function updateAccount(
  db: Db,
  env: Env,
  accountId: string,
  patch: { timeZone?: string },
): Promise<AccountView> {
  if (patch.timeZone !== undefined) {
    await changeAccount(env, accountId, { kind: "timeZone", timeZone: patch.timeZone });
    await db.update(accounts).set({ timeZone: patch.timeZone }).where(eq(accounts.id, accountId));
  }
  return (await getAccount(db, accountId))!;
}

/** Admin: sets the operator's grant of the account with this email; a subscription's grant still counts (membership.ts). */
export async function grantMembership(
  db: Db,
  env: Env,
  input: { email: string; plan: "free" | "max"; expiresAt?: string | null },
): Promise<AccountView> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(input.email)));
  if (!row) throw new AppError("not_found", "No account with this email.");
  await setMembership(db, env, row.id, {
    source: "admin",
    plan: input.plan,
    expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
  });
  return (await getAccount(db, row.id))!;
}
