import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { DEVICE_TOKEN_DAYS } from "../control/accounts/device";
import { type AccountSecret, accountSecret, confirmPassword } from "../control/accounts/reauthentication";
import { relyingParty, verifyAssertion } from "../control/accounts/passkeys";
import { knownDevice, normalizeEmail } from "../control/accounts/service";
import { sha256Hex } from "../domain/crypto";
import { isAppError } from "../domain/errors";
import type { AppEnv } from "./env";
import { publicOrigin } from "./public-origin";
import { clientIp, consume, RATE_POLICIES, type RateHeaders } from "./rate-limit";

/**
 * Sign-in backoff without lockout by strangers. Every attempt counts against its email's budget
 * (the same for unknown emails) before the password is checked. Once strangers have used that
 * budget up, a client that proves it signed in to this account before (the device cookie that
 * sign-up and sign-in set) gets a budget of its own; everyone else waits for the next window.
 * docs/security.md says why this and not a limit per email and IP.
 */
export const DEVICE_COOKIE = "todo_device";

export async function limitLogin(c: Context<AppEnv>, email: string): Promise<RateHeaders> {
  try {
    return await consume(
      c.env,
      RATE_POLICIES.perEmail,
      await sha256Hex(normalizeEmail(email)),
      "sign-in attempts per email",
    );
  } catch (e) {
    const device = getCookie(c, DEVICE_COOKIE);
    const nonce =
      isAppError(e) && e.code === "rate_limited" && device ? await knownDevice(c.var.db, email, device) : undefined;
    if (!nonce) throw e;
    return consume(c.env, RATE_POLICIES.perDevice, `device:${nonce}`, "sign-in attempts per device");
  }
}

/** Sent back only to the sign-in route, never readable by scripts, never on cross-site requests. */
export function rememberDevice(c: Context, deviceToken: string) {
  setCookie(c, DEVICE_COOKIE, deviceToken, {
    path: "/auth/login",
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    maxAge: DEVICE_TOKEN_DAYS * 86_400,
  });
}

/**
 * "Confirm it's you" before a password change or erasure: the password again, or an assertion of one of the
 * account's passkeys (its challenge from POST /account/passkeys/confirmation-options). Either costs what a sign-in
 * costs: the client IP's and the email's budgets, counted before the proof is checked (a stolen session must not
 * become a faster password oracle than /auth/login). The device cookie is scoped to /auth/login, so it never opens
 * a budget here.
 */
export interface Confirmation {
  password?: string;
  passkey?: AuthenticationResponseJSON;
}

export async function reauthenticate(c: Context<AppEnv>, proof: Confirmation, field: string): Promise<AccountSecret> {
  const account = await accountSecret(c.var.db, c.var.caller.accountId);
  await consume(c.env, RATE_POLICIES.perIp, `auth:${clientIp(c.req.raw)}`, "sign-in attempts per client IP");
  await consume(
    c.env,
    RATE_POLICIES.perEmail,
    await sha256Hex(normalizeEmail(account.email)),
    "sign-in attempts per email",
  );
  if (proof.passkey) {
    const rp = relyingParty(publicOrigin(c.env, c.req.url));
    await verifyAssertion(c.var.db, rp, proof.passkey, "confirm", account.id);
  } else await confirmPassword(account, proof.password ?? "", field);
  return account;
}
