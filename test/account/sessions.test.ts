import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, json, maxUser, signUpOverHttp } from "../helpers";

const signIn = async (email: string, password: string, userAgent: string) => {
  const res = await call("/auth/login", { body: { email, password }, headers: { "User-Agent": userAgent } });
  expect(res.status).toBe(200);
  return (await json(res)).token as string;
};

describe("GET /account/sessions", () => {
  it("lists the account's live sessions with their client, marking the one asking", async () => {
    const account = await signUpOverHttp("sessions");
    const laptop = await signIn(account.email, account.password, "Laptop Browser/1.0");
    await call("/auth/logout", { method: "POST", token: await signIn(account.email, account.password, "Gone/1.0") });
    const res = await call("/account/sessions", { token: laptop });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { data } = await json(res);
    expect(data).toHaveLength(2);
    const current = data.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ userAgent: "Laptop Browser/1.0" });
    for (const s of data) {
      expect(Object.keys(s).sort()).toEqual(["createdAt", "current", "id", "lastUsedAt", "userAgent"]);
      expect(s.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(s.lastUsedAt).toMatch(/Z$/);
    }
  });

  it("refreshes lastUsedAt once it is over a minute old", async () => {
    const account = await signUpOverHttp("sessions-touch");
    const old = "2020-01-01T00:00:00.000Z";
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE account_id = ?")
      .bind(old, account.accountId)
      .run();
    expect((await call("/account", { token: account.session })).status).toBe(200);
    // The refresh runs after the response (waitUntil): poll briefly.
    let seen = old;
    for (let i = 0; i < 50 && seen === old; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await env.DB.prepare("SELECT last_used_at AS v FROM sessions WHERE account_id = ?")
        .bind(account.accountId)
        .first<{ v: string }>())!.v;
    }
    expect(seen > old).toBe(true);
  });

  it("refuses an API key", async () => {
    const user = await maxUser("sessions-key");
    const res = await call("/account/sessions", { token: user.key });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("DELETE /account/sessions/{id}", () => {
  it("ends a session: 204, and its token is 401 on the next request while the others keep working", async () => {
    const account = await signUpOverHttp("end-session");
    const lost = await signIn(account.email, account.password, "Lost Laptop/1.0");
    const { data } = await json(await call("/account/sessions", { token: account.session }));
    const target = data.find((s: { userAgent: string }) => s.userAgent === "Lost Laptop/1.0");
    expect((await call("/account", { token: lost })).status).toBe(200);
    const res = await call(`/account/sessions/${target.id}`, { method: "DELETE", token: account.session });
    expect(res.status).toBe(204);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await call("/account", { token: lost })).status).toBe(401);
    expect((await call("/account", { token: account.session })).status).toBe(200);
    const again = await call(`/account/sessions/${target.id}`, { method: "DELETE", token: account.session });
    expect(again.status).toBe(404);
  });

  it("answers another account's session with 404 problem+json and leaves it working", async () => {
    const mine = await signUpOverHttp("end-session-mine");
    const theirs = await signUpOverHttp("end-session-theirs");
    const { data } = await json(await call("/account/sessions", { token: theirs.session }));
    const res = await call(`/account/sessions/${data[0].id}`, { method: "DELETE", token: mine.session });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(res)).code).toBe("not_found");
    expect((await call("/account", { token: theirs.session })).status).toBe(200);
  });
});
