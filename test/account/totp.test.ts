import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { rateWindow } from "../support/rate-window";
import { call, json, maxUser, signUp } from "../helpers";
import { authorizeUrl, fetchWorker, ORIGIN, pkce, registerClient, signInOnAuthorizePage } from "../oauth/support";

/**
 * One-time codes as a second factor, computed here from the secret the API hands out, with the `otpauth` library
 * an authenticator app's algorithm (RFC 6238) is checked against. Time steps are 30 s: codes for the step before
 * and after are accepted, and a step is never accepted twice.
 */
const step = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

async function withCodes(user: { session: string; email: string }) {
  const started = await call("/account/totp", { method: "POST", token: user.session });
  expect(started.status).toBe(200);
  const { secret, otpauthUri } = await json(started);
  const uri = new URL(otpauthUri);
  expect(uri.protocol).toBe("otpauth:");
  expect(uri.searchParams.get("secret")).toBe(secret);
  expect(uri.searchParams.get("algorithm")).toBe("SHA1");
  expect(uri.searchParams.get("digits")).toBe("6");
  expect(uri.searchParams.get("period")).toBe("30");
  expect(decodeURIComponent(uri.pathname)).toContain(user.email);
  const confirmed = await call("/account/totp/confirm", { token: user.session, body: { code: step(secret, -1) } });
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = await json(confirmed);
  return { secret, recoveryCodes: recoveryCodes as string[] };
}

const logIn = (user: { email: string; password: string }, code?: string) =>
  callWith({}, "/auth/login", { body: { email: user.email, password: user.password, code }, ip: uniqueIp() });

describe("one-time codes", () => {
  it("turn on with a first code and 10 recovery codes; the account says so", async () => {
    const user = await signUp("totp-on");
    const { recoveryCodes } = await withCodes(user);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await json(await call("/account", { token: user.session }))).totpEnabled).toBe(true);
    const again = await call("/account/totp", { method: "POST", token: user.session });
    expect(again.status).toBe(409);
  });

  it("a wrong first code leaves them off", async () => {
    const user = await signUp("totp-wrong-first");
    const { secret } = await json(await call("/account/totp", { method: "POST", token: user.session }));
    const wrong = String((Number(step(secret)) + 1) % 1_000_000).padStart(6, "0");
    const res = await call("/account/totp/confirm", { token: user.session, body: { code: wrong } });
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ code: "invalid_credentials", errors: [{ path: "code" }] });
    expect((await logIn(user)).status).toBe(200);
  });

  it("sign-in then needs a code: none is totp_required, a wrong one 401, the current one 200, the same one again 401", async () => {
    const user = await signUp("totp-sign-in");
    const { secret } = await withCodes(user);
    const none = await logIn(user);
    expect(none.status).toBe(401);
    expect(await json(none)).toMatchObject({ code: "totp_required" });
    expect((await logIn(user, "000000")).status).toBe(401);
    const code = step(secret, 1);
    expect((await logIn(user, code)).status).toBe(200);
    // A code of the accepted step (or older) is refused from now on: an observed code is worth nothing.
    expect((await logIn(user, code)).status).toBe(401);
    expect((await logIn(user, step(secret))).status).toBe(401);
    // A wrong password with a right code says nothing about the code.
    const badPassword = await logIn({ ...user, password: "not the password" }, step(secret, 1));
    expect(await json(badPassword)).toMatchObject({ code: "invalid_credentials" });
  });

  it("a recovery code works once, whatever its case, spaces or dashes", async () => {
    const user = await signUp("totp-recovery");
    const { recoveryCodes } = await withCodes(user);
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace("-", " ")} `;
    expect((await logIn(user, typed)).status).toBe(200);
    expect((await logIn(user, recoveryCodes[3])).status).toBe(401);
    expect((await logIn(user, recoveryCodes[4])).status).toBe(200);
  });

  it("turning off needs a code; then sign-in asks for the password only", async () => {
    const user = await signUp("totp-off");
    const { secret } = await withCodes(user);
    const without = await call("/account/totp", { method: "DELETE", token: user.session, body: { code: "123" } });
    expect(without.status).toBe(401);
    const off = await call("/account/totp", { method: "DELETE", token: user.session, body: { code: step(secret, 1) } });
    expect(off.status).toBe(204);
    expect((await logIn(user)).status).toBe(200);
    expect((await json(await call("/account", { token: user.session }))).totpEnabled).toBe(false);
    // The account's audit trail has both, newest first.
    const { data } = await json(await call("/account/security-events", { token: user.session }));
    const types = data.map((e: { type: string }) => e.type);
    expect(types.indexOf("totp_disabled")).toBeGreaterThanOrEqual(0);
    expect(types.indexOf("totp_disabled")).toBeLessThan(types.indexOf("totp_enabled"));
  });

  it("code attempts are limited per account (5 a minute), counted before the code is checked", async () => {
    const user = await signUp("totp-limit");
    const { secret } = await json(await call("/account/totp", { method: "POST", token: user.session }));
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const res = await callWith({ RATE_LIMITS: "on", ...rateWindow() }, "/account/totp/confirm", {
        token: user.session,
        body: { code: "000000" },
        ip: uniqueIp(),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(secret).toBeTruthy();
  });

  it("the OAuth authorize page's sign-in asks for the code too", async () => {
    const user = await maxUser("totp-oauth");
    const { secret } = await withCodes(user);
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const url = authorizeUrl({ clientId, challenge });
    const post = (fields: Record<string, string>) =>
      fetchWorker(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body: new URLSearchParams({ step: "sign-in", ...fields }).toString(),
        redirect: "manual",
      });
    const asked = await post({ email: user.email, password: user.password });
    expect(asked.status).toBe(400);
    const page = await asked.text();
    expect(page).toContain('name="code"');
    expect(page).not.toContain("consent");
    const wrong = await post({ email: user.email, password: user.password, code: "000000" });
    expect(wrong.status).toBe(400);
    const credentials = { email: user.email, password: user.password, code: step(secret, 1) };
    const consent = await signInOnAuthorizePage(url, credentials);
    expect(consent.ticket).toBeTruthy();
  });
});
