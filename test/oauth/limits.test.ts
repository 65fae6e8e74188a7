import { describe, expect, it } from "vitest";
import { maxUser } from "../helpers";
import { uniqueIp } from "../hardening/support";
import { authorizeUrl, limited, ORIGIN, pkce, REDIRECT, registerClient } from "./support";

const signIn = (url: string, ip: string, email: string, password: string) =>
  limited(url, {
    ip,
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams({ step: "sign-in", email, password }).toString(),
  });

describe("the authorize page's sign-in has the limits of /auth/login", () => {
  it("10 attempts a minute per client IP, shared with /auth/login", async () => {
    const clientId = await registerClient();
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    const ip = uniqueIp();
    const login = await limited(`${ORIGIN}/auth/login`, {
      ip,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong password" }),
    });
    expect(login.status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signIn(url, ip, `nobody-${i}@example.com`, "wrong password")).status);
    expect(statuses).toEqual([...Array(9).fill(400), 429, 429]);
    const refused = await signIn(url, ip, "nobody@example.com", "wrong password");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.text()).toContain("Too many requests");
  }, 60_000);

  it("5 attempts a minute per email, whatever the IP, before the password is checked", async () => {
    const user = await maxUser("oauth-email-limit");
    const clientId = await registerClient();
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(url, uniqueIp(), user.email, "wrong password")).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The right password waits too.
    expect((await signIn(url, uniqueIp(), user.email, user.password)).status).toBe(429);
  }, 60_000);
});

describe("dynamic client registration", () => {
  it("takes 10 registrations a minute per client IP", async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await limited(`${ORIGIN}/oauth/register`, {
        ip,
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: `Agent ${i}`,
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "none",
        }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
  });

  it("refuses oversized names and metadata with 400 invalid_client_metadata", async () => {
    const res = await limited(`${ORIGIN}/oauth/register`, {
      ip: uniqueIp(),
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_name: "x".repeat(201),
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_client_metadata" });
  });
});
