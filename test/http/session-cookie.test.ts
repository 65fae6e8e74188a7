import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { accessesOf } from "../../src/http/access";
import { accountSecret } from "../../src/control/accounts/reauthentication";
import { type ClientInfo, startSession } from "../../src/control/accounts/service";
import { createDb } from "../../src/control/db";
import { BASE, call, json, signUp, signUpOverHttp } from "../helpers";

/** A new session's token for an account, as a sign-in starts one (service.ts startSession). */
const sessionOf = async (db: Parameters<typeof startSession>[0], accountId: string, client: ClientInfo) =>
  (await startSession(db, await accountSecret(db, accountId), client)).token;

/**
 * The pages' session cookie (issue 36 item 6): its flags, that it authenticates like the bearer token, that it
 * slides, that signing out clears it, and that every state-changing route a cookie can authenticate refuses a
 * request from another origin (a walk over every route, like route-guards.test.ts) while the bearer token
 * keeps working without any Origin.
 */

const COOKIE = "__Host-todo_session";
const withCookie = (token: string, headers: Record<string, string> = {}) => ({
  headers: { Cookie: `${COOKIE}=${token}`, ...headers },
});
const sessionCookieOf = (res: Response) =>
  res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`) || c.startsWith("todo_session="));

describe("the session cookie", () => {
  it("sign-up and sign-in set it (HttpOnly, Secure, SameSite=Lax, Path=/, 30 days) beside the JSON token", async () => {
    const account = await signUpOverHttp("cookie-flags");
    const res = await call("/auth/login", { body: { email: account.email, password: account.password } });
    expect(res.status).toBe(200);
    const { token } = await json(res);
    expect(token).toMatch(/^todo_sess_/);
    const cookie = sessionCookieOf(res)!;
    expect(cookie).toBe(`${COOKIE}=${token}; Max-Age=2592000; Path=/; HttpOnly; Secure; SameSite=Lax`);
    expect(cookie).not.toMatch(/Domain=/i);
    // The page's hint that it is signed in: no secret, readable by the page, gone with the session cookie.
    expect(res.headers.getSetCookie()).toContain(
      "__Host-todo_signed_in=1; Max-Age=2592000; Path=/; Secure; SameSite=Lax",
    );

    const signup = await call("/auth/signup", {
      body: { email: `c-${crypto.randomUUID()}@example.com`, password: account.password },
    });
    expect(signup.status).toBe(201);
    expect(sessionCookieOf(signup)).toBe(
      `${COOKIE}=${(await json(signup)).token}; Max-Age=2592000; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
  });

  it("on http://localhost it is todo_session, without Secure (browsers refuse __Host- over http)", async () => {
    const account = await signUp("cookie-local");
    const res = await exports.default.fetch(
      new Request("http://localhost:8787/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: account.email, password: account.password }),
      }),
    );
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res)!;
    expect(cookie).toMatch(/^todo_session=todo_sess_\w+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = cookie.split(";")[0]!.split("=")[1]!;
    const me = await exports.default.fetch(
      new Request("http://localhost:8787/account", { headers: { Cookie: `todo_session=${token}` } }),
    );
    expect(me.status).toBe(200);
  });

  it("authenticates the pages' reads alone, and a foreign Origin never gets it set", async () => {
    const account = await signUp("cookie-read");
    const res = await call("/account", withCookie(account.session));
    expect(res.status).toBe(200);
    expect((await json(res)).id).toBe(account.accountId);
    expect((await call("/account", withCookie("todo_sess_x"))).status).toBe(401);

    const partner = await createApp().fetch(
      new Request(`${BASE}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "https://app.partner.example" },
        body: JSON.stringify({ email: account.email, password: account.password }),
      }),
      { ...env, ALLOWED_ORIGINS: "app.partner.example" },
      createExecutionContext(),
    );
    expect(partner.status).toBe(200);
    expect((await json(partner)).token).toMatch(/^todo_sess_/);
    expect(sessionCookieOf(partner)).toBeUndefined();
  });

  it("slides: a refresh starts the 30 days again and sends the cookie again", async () => {
    const account = await signUp("cookie-slide");
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    await env.DB.prepare("UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE account_id = ?")
      .bind("2020-01-01T00:00:00.000Z", soon, account.accountId)
      .run();
    const res = await call("/account", withCookie(account.session));
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)).toMatch(new RegExp(`^${COOKIE}=${account.session}; Max-Age=2592000;`));
    let expires = soon;
    for (let i = 0; i < 50 && expires === soon; i++) {
      await new Promise((r) => setTimeout(r, 20));
      expires = (await env.DB.prepare("SELECT expires_at AS v FROM sessions WHERE account_id = ?")
        .bind(account.accountId)
        .first<{ v: string }>())!.v;
    }
    expect(Date.parse(expires)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // A bearer request is refreshed too, but gets no cookie it did not ask for.
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE account_id = ?")
      .bind("2020-01-01T00:00:00.000Z", account.accountId)
      .run();
    expect(sessionCookieOf(await call("/account", { token: account.session }))).toBeUndefined();
  });

  it("sign-out clears it; sign out everywhere ends every session and clears it", async () => {
    const account = await signUp("cookie-out");
    const own = { Origin: BASE };
    const out = await call("/auth/logout", { method: "POST", ...withCookie(account.session, own) });
    expect(out.status).toBe(204);
    expect(sessionCookieOf(out)).toMatch(new RegExp(`^${COOKIE}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`));
    expect(out.headers.getSetCookie()).toContain("__Host-todo_signed_in=; Max-Age=0; Path=/; Secure; SameSite=Lax");
    expect((await call("/account", withCookie(account.session))).status).toBe(401);

    const db = createDb(env.DB);
    const [page, script] = await Promise.all([
      sessionOf(db, account.accountId, { userAgent: "Page/1" }),
      sessionOf(db, account.accountId, {}),
    ]);
    const all = await call("/account/sessions", { method: "DELETE", ...withCookie(page, own) });
    expect(all.status).toBe(204);
    expect(sessionCookieOf(all)).toMatch(/Max-Age=0/);
    expect((await call("/account", withCookie(page))).status).toBe(401);
    expect((await call("/account", { token: script })).status).toBe(401);
  });
});

describe("every state-changing route a cookie authenticates refuses another origin", () => {
  const app = createApp();
  const changing = new Set(["POST", "PUT", "PATCH", "DELETE"]);
  const SAMPLE_ID = "0193c000-0000-7000-8000-000000000000";
  const routes = [
    ...new Set(
      app.routes
        // The task and list handlers also serve /api/v1 (API keys only): a session reaches them at /account/….
        .filter(
          (r) =>
            changing.has(r.method) &&
            !r.path.startsWith("/api/") &&
            accessesOf(r.handler).some((a) => a.credentials === "session"),
        )
        .map((r) => `${r.method} ${r.path.replace(/:\w+(\{[^}]*\})?/g, SAMPLE_ID)}`),
    ),
  ];
  const partnerEnv = { ...env, ALLOWED_ORIGINS: "app.partner.example" };

  it("finds the routes", () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const route of ["POST /auth/logout", "DELETE /account/sessions", "POST /account/tasks", "PATCH /account"])
      expect(routes).toContain(route);
  });

  it.each(routes)("%s", async (route) => {
    const [method, path] = route.split(" ") as [string, string];
    const account = await signUp("csrf-walk");
    const db = createDb(env.DB);
    const send = async (headers: Record<string, string>) =>
      app.fetch(
        new Request(`${BASE}${path}`, {
          method,
          headers: { "Content-Type": "application/json", ...headers },
          body: "{}",
        }),
        partnerEnv,
        createExecutionContext(),
      );
    const cookie = async () => ({ Cookie: `${COOKIE}=${await sessionOf(db, account.accountId, {})}` });
    const refused = async (res: Response) => {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect((await json(res)).code).toBe("forbidden_origin");
    };
    // A foreign origin the CORS policy lets call (ALLOWED_ORIGINS), a foreign one it does not, and a request
    // without Origin that the browser marks cross-site or same-site (a sibling subdomain), or marks not at all.
    await refused(await send({ ...(await cookie()), Origin: "https://app.partner.example" }));
    await refused(await send({ ...(await cookie()), Origin: "https://evil.example" }));
    await refused(await send({ ...(await cookie()), "Sec-Fetch-Site": "cross-site" }));
    await refused(await send({ ...(await cookie()), "Sec-Fetch-Site": "same-site" }));
    await refused(await send(await cookie()));
    // The site's own pages pass the guard (whatever the route then answers to an empty body).
    for (const own of [{ Origin: BASE }, { "Sec-Fetch-Site": "same-origin" }] as Record<string, string>[]) {
      const res = await send({ ...(await cookie()), ...own });
      expect(res.status).not.toBe(401);
      if (res.status === 403) expect((await json(res)).code).not.toBe("forbidden_origin");
    }
    // Scripts: the bearer token, with no Origin at all.
    const bearer = await send({ Authorization: `Bearer ${await sessionOf(db, account.accountId, {})}` });
    expect(bearer.status).not.toBe(401);
    if (bearer.status === 403) expect((await json(bearer)).code).not.toBe("forbidden_origin");
  });
});
