import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import type { Db } from "../db";
import { accounts } from "../schema";
import { AppError } from "../../domain/errors";
import { type RelyingParty, verifyAssertion } from "./passkeys";
import { type ClientInfo, type SignedIn, startSession } from "./service";

/**
 * Usernameless sign-in: the passkey names its account, and the session starts as a password sign-in's does
 * (service.ts startSession: the same token, account and device token). One-time codes are not asked: the passkey
 * required user verification, so it is already two factors (docs/security.md).
 */
export async function logInWithPasskey(
  db: Db,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  client: ClientInfo = {},
): Promise<SignedIn> {
  const accountId = await verifyAssertion(db, rp, response, "sign_in", null);
  const [signer] = await db
    .select({ id: accounts.id, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  // The passkey's row cascades with its account; only a race with erasure gets here.
  if (!signer) throw new AppError("invalid_credentials", "This passkey's account no longer exists.");
  return startSession(db, signer, client);
}
