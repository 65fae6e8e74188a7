import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, json, signUpOverHttp, uniqueEmail } from "../helpers";

describe("sign-up, sign-in and sessions", () => {
  it("signs up with 201 {token, account} on the free plan", async () => {
    const email = uniqueEmail();
    const res = await call("/auth/signup", { body: { email, password: "long enough password" } });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.token).toMatch(/^todo_sess_/);
    expect(body.account).toMatchObject({ email, membership: { plan: "free", active: false, expiresAt: null } });
  });

  it("refuses a taken email with 409 and a short password with 400", async () => {
    const account = await signUpOverHttp();
    const taken = await call("/auth/signup", {
      body: { email: account.email.toUpperCase(), password: "another long one" },
    });
    expect(taken.status).toBe(409);
    expect((await json(taken)).code).toBe("email_taken");
    const short = await call("/auth/signup", { body: { email: uniqueEmail(), password: "123456789" } });
    expect(short.status).toBe(400);
    expect((await json(short)).errors[0].path).toBe("password");
  });

  it("stores passwords as salted PBKDF2, never in clear", async () => {
    const account = await signUpOverHttp();
    const row = await env.DB.prepare("SELECT password_hash FROM accounts WHERE id = ?")
      .bind(account.accountId)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(row?.password_hash).not.toContain(account.password);
  });

  it("logs in with 200, and answers a wrong password and an unknown email with the same 401", async () => {
    const account = await signUpOverHttp();
    const ok = await call("/auth/login", { body: { email: account.email, password: account.password } });
    expect(ok.status).toBe(200);
    expect((await json(ok)).account.id).toBe(account.accountId);
    const wrong = await call("/auth/login", { body: { email: account.email, password: "wrong password!" } });
    const unknown = await call("/auth/login", { body: { email: uniqueEmail(), password: "wrong password!" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await json(wrong)).detail).toBe((await json(unknown)).detail);
  });

  it("logs out with 204 and the session stops working", async () => {
    const account = await signUpOverHttp();
    expect((await call("/account", { token: account.session })).status).toBe(200);
    expect((await call("/auth/logout", { method: "POST", token: account.session })).status).toBe(204);
    expect((await call("/account", { token: account.session })).status).toBe(401);
  });

  it("stores session tokens hashed", async () => {
    const account = await signUpOverHttp();
    const dump = JSON.stringify(await env.DB.prepare("SELECT * FROM sessions").all());
    expect(dump).not.toContain(account.session);
  });

  it("refuses an expired session", async () => {
    const account = await signUpOverHttp();
    await env.DB.prepare("UPDATE sessions SET expires_at = '2020-01-01T00:00:00.000Z' WHERE account_id = ?")
      .bind(account.accountId)
      .run();
    expect((await call("/account", { token: account.session })).status).toBe(401);
  });

  it("reads and sets the account time zone", async () => {
    const account = await signUpOverHttp();
    expect((await json(await call("/account", { token: account.session }))).timeZone).toBe("UTC");
    const res = await call("/account", {
      method: "PATCH",
      token: account.session,
      body: { timeZone: "Europe/Berlin" },
    });
    expect((await json(res)).timeZone).toBe("Europe/Berlin");
    const bad = await call("/account", { method: "PATCH", token: account.session, body: { timeZone: "Mars/Olympus" } });
    expect(bad.status).toBe(400);
  });
});

describe("admin memberships", () => {
  it("grants Max with an expiry, visible in GET /account", async () => {
    const account = await signUpOverHttp();
    const res = await call("/admin/memberships", {
      method: "PUT",
      token: ADMIN_TOKEN,
      body: { email: account.email, plan: "max", expiresAt: "2099-01-01T00:00:00Z" },
    });
    expect(res.status).toBe(200);
    const me = await json(await call("/account", { token: account.session }));
    expect(me.membership).toEqual({ plan: "max", active: true, expiresAt: "2099-01-01T00:00:00.000Z" });
  });

  it("answers 401 for a wrong admin token and 404 for an unknown email", async () => {
    const account = await signUpOverHttp();
    const wrong = await call("/admin/memberships", {
      method: "PUT",
      token: "nope",
      body: { email: account.email, plan: "max" },
    });
    expect(wrong.status).toBe(401);
    const unknown = await call("/admin/memberships", {
      method: "PUT",
      token: ADMIN_TOKEN,
      body: { email: uniqueEmail(), plan: "max" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("unknown routes", () => {
  it("answers 404 problem+json", async () => {
    const res = await call("/api/v1/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(res)).code).toBe("not_found");
  });
});

describe("admin route without ADMIN_TOKEN", () => {
  it("does not exist (404) when the secret is unset", async () => {
    const { createApp } = await import("../../src/app");
    const { createExecutionContext } = await import("cloudflare:test");
    const request = new Request("http://example.com/admin/memberships", {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: "Bearer anything" },
      body: JSON.stringify({ email: "a@example.com", plan: "max" }),
    });
    const res = await createApp().fetch(request, { ...env, ADMIN_TOKEN: "" }, createExecutionContext());
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("not_found");
  });
});
