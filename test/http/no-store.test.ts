import { describe, expect, it } from "vitest";
import { call, json, signUp, uniqueEmail } from "../helpers";

/** Responses that carry a secret (a session token, an API key) must not be kept by any cache. */
describe("Cache-Control: no-store on responses that carry a secret", () => {
  it("POST /auth/signup: the new session token", async () => {
    const res = await call("/auth/signup", {
      body: { email: uniqueEmail("no-store"), password: "correct horse battery" },
    });
    expect(res.status).toBe(201);
    expect((await json(res)).token).toMatch(/^todo_sess_/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("POST /auth/login: the new session token", async () => {
    const account = await signUp("no-store-login");
    const res = await call("/auth/login", { body: { email: account.email, password: account.password } });
    expect(res.status).toBe(200);
    expect((await json(res)).token).toMatch(/^todo_sess_/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("POST /account/api-keys: the new API key", async () => {
    const account = await signUp("no-store-key");
    const res = await call("/account/api-keys", { token: account.session, body: { name: "laptop" } });
    expect(res.status).toBe(201);
    expect((await json(res)).key).toMatch(/^todo_live_/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("and the account's other responses, which carry its email and key list", async () => {
    const account = await signUp("no-store-account");
    for (const path of ["/account", "/account/api-keys"]) {
      const res = await call(path, { token: account.session });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});
