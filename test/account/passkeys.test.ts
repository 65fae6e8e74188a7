import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { callWith, limited, uniqueIp } from "../hardening/support";
import { call, json, signUp, type TestAccount } from "../helpers";
import { SoftwareAuthenticator } from "../support/authenticator";
import { AccountExport } from "../../src/http/account-export";

/**
 * Passkeys against a software authenticator (test/support/authenticator.ts): real P-256 signatures over bytes built
 * as a browser and authenticator would, so the server's library verifies each ceremony for real. The Worker's
 * origin here is http://example.com (vitest.config.ts: PUBLIC_ORIGIN empty), so the RP ID is example.com.
 */
const registrationOptions = async (user: TestAccount) => {
  const res = await call("/account/passkeys/registration-options", { method: "POST", token: user.session });
  expect(res.status).toBe(200);
  return json(res);
};

async function withPasskey(user: TestAccount, name = "Laptop") {
  const authenticator = await SoftwareAuthenticator.create();
  const response = await authenticator.register(await registrationOptions(user));
  const res = await call("/account/passkeys", { token: user.session, body: { name, response } });
  expect(res.status).toBe(201);
  return { authenticator, passkey: await json(res) };
}

const signInOptions = async () => json(await callWith({}, "/auth/passkey/options", { method: "POST", ip: uniqueIp() }));
const signIn = (response: unknown) => callWith({}, "/auth/passkey", { body: { response }, ip: uniqueIp() });

describe("passkeys", () => {
  it("registration options name this origin's host, the account, and ask for a discoverable, verified credential", async () => {
    const user = await signUp("passkey-options");
    const options = await registrationOptions(user);
    expect(options.rp).toMatchObject({ id: "example.com" });
    expect(options.user.name).toBe(user.email);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(options.attestation).toBe("none");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(options.excludeCredentials).toEqual([]);
    const { authenticator } = await withPasskey(user);
    const again = await registrationOptions(user);
    expect(again.excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
  });

  it("register several, list, rename and remove them; another account's is not found", async () => {
    const user = await signUp("passkey-crud");
    const first = await withPasskey(user, "Laptop");
    const second = await withPasskey(user, "  Phone ");
    expect(first.passkey).toMatchObject({ id: first.authenticator.id, name: "Laptop", lastUsedAt: null });
    const listed = await json(await call("/account/passkeys", { token: user.session }));
    expect(listed.data.map((p: { name: string }) => p.name)).toEqual(["Laptop", "Phone"]);
    const renamed = await call(`/account/passkeys/${second.authenticator.id}`, {
      method: "PATCH",
      token: user.session,
      body: { name: "Work phone" },
    });
    expect(renamed.status).toBe(200);
    expect((await json(renamed)).name).toBe("Work phone");
    const stranger = await signUp("passkey-stranger");
    const path = `/account/passkeys/${first.authenticator.id}`;
    expect((await call(path, { method: "DELETE", token: stranger.session })).status).toBe(404);
    expect((await call(path, { method: "PATCH", token: stranger.session, body: { name: "x" } })).status).toBe(404);
    expect((await call(path, { method: "DELETE", token: user.session })).status).toBe(204);
    expect((await call(path, { method: "DELETE", token: user.session })).status).toBe(404);
    const left = await json(await call("/account/passkeys", { token: user.session }));
    expect(left.data.map((p: { id: string }) => p.id)).toEqual([second.authenticator.id]);
    // The export holds them as the list does, and nothing of the credential itself (its public key).
    const text = await (await call("/account/export", { token: user.session })).text();
    expect(AccountExport.parse(JSON.parse(text)).passkeys).toEqual(left.data);
    expect(text).not.toMatch(/publicKey|public_key/);
  });

  it("a registration for another origin or RP ID, without user verification, or on a used challenge is refused", async () => {
    const user = await signUp("passkey-refused");
    const cases = [{ origin: "https://evil.example" }, { rpId: "evil.example" }, { userVerified: false }];
    for (const at of cases) {
      const authenticator = await SoftwareAuthenticator.create();
      const response = await authenticator.register(await registrationOptions(user), at);
      const res = await call("/account/passkeys", { token: user.session, body: { name: "x", response } });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: "validation_failed", errors: [{ path: "response" }] });
    }
    const authenticator = await SoftwareAuthenticator.create();
    const options = await registrationOptions(user);
    const response = await authenticator.register(options);
    expect((await call("/account/passkeys", { token: user.session, body: { name: "a", response } })).status).toBe(201);
    const twice = await (await SoftwareAuthenticator.create()).register(options);
    expect(
      (await call("/account/passkeys", { token: user.session, body: { name: "b", response: twice } })).status,
    ).toBe(400);
    // Another account's challenge is not this account's.
    const other = await signUp("passkey-other-challenge");
    const foreign = await (await SoftwareAuthenticator.create()).register(await registrationOptions(other));
    expect(
      (await call("/account/passkeys", { token: user.session, body: { name: "c", response: foreign } })).status,
    ).toBe(400);
    expect((await json(await call("/account/passkeys", { token: user.session }))).data).toHaveLength(1);
  });

  it("sign-in: usernameless options, the same session answer as /auth/login, and the token works", async () => {
    const user = await signUp("passkey-sign-in");
    const { authenticator } = await withPasskey(user);
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: "example.com", userVerification: "required", allowCredentials: [] });
    const res = await signIn(await authenticator.assert(options));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(["account", "token"]);
    expect(body.token).toMatch(/^todo_sess_/);
    expect(body.account).toMatchObject({ id: user.accountId, email: user.email });
    expect(res.headers.get("set-cookie")).toContain("todo_device=");
    expect((await call("/account", { token: body.token })).status).toBe(200);
    const listed = await json(await call("/account/passkeys", { token: user.session }));
    expect(listed.data[0].lastUsedAt).not.toBeNull();
  });

  it("refuses with 401: an unknown passkey, a replayed assertion, a lower counter, another origin or RP ID, a removed passkey", async () => {
    const user = await signUp("passkey-refusals");
    const { authenticator } = await withPasskey(user);
    const stranger = await SoftwareAuthenticator.create();
    const unknown = await signIn(await stranger.assert(await signInOptions()));
    expect(unknown.status).toBe(401);
    expect(await json(unknown)).toMatchObject({ code: "invalid_credentials" });

    const assertion = await authenticator.assert(await signInOptions(), { counter: 5 });
    expect((await signIn(assertion)).status).toBe(200);
    expect((await signIn(assertion)).status).toBe(401);
    expect((await signIn(await authenticator.assert(await signInOptions(), { counter: 3 }))).status).toBe(401);
    expect(
      (await signIn(await authenticator.assert(await signInOptions(), { origin: "https://evil.example" }))).status,
    ).toBe(401);
    expect((await signIn(await authenticator.assert(await signInOptions(), { rpId: "evil.example" }))).status).toBe(
      401,
    );
    expect((await signIn(await authenticator.assert(await signInOptions(), { userVerified: false }))).status).toBe(401);
    expect((await signIn(await authenticator.assert(await signInOptions(), { counter: 6 }))).status).toBe(200);

    // An authenticator that keeps its counter at 0 (many passkeys do): only the used challenge stops a replay.
    const { authenticator: zero } = await withPasskey(user, "Counter at zero");
    const still = await zero.assert(await signInOptions(), { counter: 0 });
    expect((await signIn(still)).status).toBe(200);
    expect((await signIn(still)).status).toBe(401);
    expect((await signIn(await zero.assert(await signInOptions(), { counter: 0 }))).status).toBe(200);

    await call(`/account/passkeys/${authenticator.id}`, { method: "DELETE", token: user.session });
    expect((await signIn(await authenticator.assert(await signInOptions()))).status).toBe(401);
  });

  it("a passkey is the second factor: an account with one-time codes signs in with it without a code", async () => {
    const user = await signUp("passkey-totp");
    const { secret } = await json(await call("/account/totp", { method: "POST", token: user.session }));
    const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    expect((await call("/account/totp/confirm", { token: user.session, body: { code } })).status).toBe(200);
    const { authenticator } = await withPasskey(user);
    expect((await signIn(await authenticator.assert(await signInOptions()))).status).toBe(200);
  });

  it("malformed answers are 400 or 401 problems, never a 500", async () => {
    const user = await signUp("passkey-malformed");
    const { authenticator } = await withPasskey(user);
    const good = await authenticator.register(await registrationOptions(user));
    for (const response of [
      { ...good, response: { ...good.response, clientDataJSON: "AAAA" } },
      { ...good, response: { ...good.response, attestationObject: "AAAA" } },
      { ...good, response: { ...good.response, attestationObject: "" } },
    ]) {
      const res = await call("/account/passkeys", { token: user.session, body: { name: "x", response } });
      expect([res.status, (await json(res)).code]).toEqual([400, "validation_failed"]);
    }
    const assertion = await authenticator.assert(await signInOptions());
    for (const response of [
      { ...assertion, response: { ...assertion.response, signature: "AAAA" } },
      { ...assertion, response: { ...assertion.response, clientDataJSON: "e30" } },
      { ...assertion, response: { ...assertion.response, authenticatorData: "" } },
      { ...assertion, response: { ...assertion.response, userHandle: "AAAA" } },
    ]) {
      const res = await signIn(response);
      expect([res.status, (await json(res)).code]).toEqual([401, "invalid_credentials"]);
    }
    for (const body of [{}, { response: { ...assertion, id: "not base64url!" } }, { response: assertion, extra: 1 }]) {
      const res = await callWith({}, "/auth/passkey", { body, ip: uniqueIp() });
      expect([res.status, (await json(res)).code]).toEqual([400, "validation_failed"]);
    }
  });

  it("sign-in is rate-limited per client IP and per passkey", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await limited("/auth/passkey/options", { method: "POST", ip })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);

    const stranger = await SoftwareAuthenticator.create();
    const options = await signInOptions();
    const perPasskey = [];
    for (let i = 0; i < 6; i++) {
      const res = await limited("/auth/passkey", {
        body: { response: await stranger.assert(options) },
        ip: uniqueIp(),
      });
      perPasskey.push(res.status);
    }
    expect(perPasskey).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("confirms it's you for a password change and erasure, with the account's own passkey only", async () => {
    const user = await signUp("passkey-confirm");
    const { authenticator } = await withPasskey(user);
    const confirmation = async (session: string) =>
      authenticator.assert(
        await json(await call("/account/passkeys/confirmation-options", { method: "POST", token: session })),
      );
    const options = await json(
      await call("/account/passkeys/confirmation-options", { method: "POST", token: user.session }),
    );
    expect(options.allowCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);

    const both = await call("/account/password", {
      token: user.session,
      body: {
        currentPassword: user.password,
        passkey: await confirmation(user.session),
        newPassword: "a new long password",
      },
    });
    expect(both.status).toBe(400);
    const neither = await call("/account/password", {
      token: user.session,
      body: { newPassword: "a new long password" },
    });
    expect(neither.status).toBe(400);
    // A sign-in challenge does not confirm: it is not bound to this account.
    const signInChallenge = await authenticator.assert(await signInOptions());
    const wrongPurpose = await call("/account", {
      method: "DELETE",
      token: user.session,
      body: { passkey: signInChallenge },
    });
    expect(wrongPurpose.status).toBe(401);
    // Another account cannot use this passkey to confirm.
    const other = await signUp("passkey-confirm-other");
    const foreign = await call("/account", {
      method: "DELETE",
      token: other.session,
      body: { passkey: await confirmation(other.session) },
    });
    expect(foreign.status).toBe(401);

    const changed = await call("/account/password", {
      token: user.session,
      body: { passkey: await confirmation(user.session), newPassword: "a new long password" },
    });
    expect(changed.status).toBe(204);
    const login = await callWith({}, "/auth/login", {
      body: { email: user.email, password: "a new long password" },
      ip: uniqueIp(),
    });
    expect(login.status).toBe(200);

    const erased = await call("/account", {
      method: "DELETE",
      token: user.session,
      body: { passkey: await confirmation(user.session) },
    });
    expect(erased.status).toBe(204);
    expect((await signIn(await authenticator.assert(await signInOptions()))).status).toBe(401);
  });
});
