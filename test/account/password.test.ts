import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { limited, uniqueIp } from "../hardening/support";
import { call, json, maxUser, signUpOverHttp } from "../helpers";

const logIn = (email: string, password: string) => call("/auth/login", { body: { email, password } });
const change = (token: string, body: unknown) => call("/account/password", { token, body });

describe("POST /account/password", () => {
  it("changes the password: 204, the other sessions end, this one and the API keys keep working", async () => {
    const user = await maxUser("password");
    const other = (await json(await logIn(user.email, user.password))).token;
    const res = await change(user.session, { currentPassword: user.password, newPassword: "a brand new passphrase" });
    expect(res.status).toBe(204);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await call("/account", { token: other })).status).toBe(401);
    expect((await call("/account", { token: user.session })).status).toBe(200);
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    expect((await logIn(user.email, user.password)).status).toBe(401);
    expect((await logIn(user.email, "a brand new passphrase")).status).toBe(200);
  });

  it("refuses a wrong current password with 401 invalid_credentials and changes nothing", async () => {
    const account = await signUpOverHttp("password-wrong");
    const other = (await json(await logIn(account.email, account.password))).token;
    const res = await change(account.session, {
      currentPassword: "not my password",
      newPassword: "a brand new passphrase",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await json(res)).toMatchObject({ code: "invalid_credentials", errors: [{ path: "currentPassword" }] });
    expect((await call("/account", { token: other })).status).toBe(200);
    expect((await logIn(account.email, account.password)).status).toBe(200);
  });

  it("holds the new password to the sign-up rule: too short is 400 naming newPassword", async () => {
    const account = await signUpOverHttp("password-short");
    const res = await change(account.session, { currentPassword: account.password, newPassword: "short" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await json(res)).toMatchObject({ code: "validation_failed", errors: [{ path: "newPassword" }] });
    const before = await env.DB.prepare("SELECT password_hash AS h FROM accounts WHERE id = ?")
      .bind(account.accountId)
      .first<{ h: string }>();
    expect((await logIn(account.email, account.password)).status).toBe(200);
    expect(before?.h).toMatch(/^pbkdf2/);
  });

  it("judges the session before the body (401, not 400) and refuses an API key", async () => {
    const user = await maxUser("password-auth");
    expect(
      (await call("/account/password", { body: "{", headers: { "content-type": "application/json" } })).status,
    ).toBe(401);
    expect(
      (await change(user.key, { currentPassword: user.password, newPassword: "a brand new passphrase" })).status,
    ).toBe(401);
  });
});

describe("POST /account/password under the sign-in limits (wrangler.toml's [[ratelimits]])", {
  timeout: 60_000,
}, () => {
  it("counts current-password attempts against the email's sign-in budget", async () => {
    const account = await signUpOverHttp("password-limit");
    const statuses: number[] = [];
    for (let i = 0; i < RATE_POLICIES.perEmail.quota + 1; i++) {
      const res = await limited("/account/password", {
        ip: uniqueIp(),
        token: account.session,
        body: { currentPassword: "a wrong guess!", newPassword: "a brand new passphrase" },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(RATE_POLICIES.perEmail.quota).fill(401), 429]);
    // /auth/login shares that budget.
    expect(
      (await limited("/auth/login", { ip: uniqueIp(), body: { email: account.email, password: account.password } }))
        .status,
    ).toBe(429);
  });
});
