import { describe, expect, it } from "vitest";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { json, uniqueEmail } from "../helpers";
import { limited, uniqueIp } from "./support";

/**
 * Sign-in backoff per email without lockout by strangers: attempts from clients that never signed
 * in to the account share the per-email budget; a client that did (it holds the account's device
 * cookie) gets a budget of its own once strangers have used that one up.
 */

/** The `name=value` pairs a browser would send back from this response's Set-Cookie headers. */
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");

async function newAccount(ip: string) {
  const email = uniqueEmail("sign-in");
  const password = "correct horse battery";
  const res = await limited("/auth/signup", { ip, body: { email, password } });
  expect(res.status).toBe(201);
  return { email, password, browser: cookiesOf(res) };
}

async function logIn(email: string, password: string, options: { ip?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = options.cookie ? { cookie: options.cookie } : {};
  const res = await limited("/auth/login", { ip: options.ip ?? uniqueIp(), headers, body: { email, password } });
  await res.body?.cancel();
  return res;
}

/** Strangers, each from another IP, send wrong passwords until the per-email budget is used up. */
async function fillFromStrangers(email: string) {
  const statuses: number[] = [];
  for (let i = 0; i < RATE_POLICIES.perEmail.quota + 2; i++)
    statuses.push((await logIn(email, "a wrong guess!")).status);
  expect(statuses).toEqual([...Array(RATE_POLICIES.perEmail.quota).fill(401), 429, 429]);
}

describe("sign-in without lockout by strangers (wrangler.toml's [[ratelimits]])", { timeout: 60_000 }, () => {
  it("lets the account's own browser sign in after strangers from other IPs used up the email's budget", async () => {
    const home = uniqueIp();
    const account = await newAccount(home);
    await fillFromStrangers(account.email);
    // The same browser, even from another network: its device cookie came with the sign-up.
    const res = await logIn(account.email, account.password, { cookie: account.browser });
    expect(res.status).toBe(200);
    // Strangers stay backed off, the right password included.
    expect((await logIn(account.email, account.password)).status).toBe(429);
  });

  it("still backs off guesses from the known browser itself, on its own budget", async () => {
    const account = await newAccount(uniqueIp());
    await fillFromStrangers(account.email);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_POLICIES.perDevice.quota + 2; i++) {
      statuses.push((await logIn(account.email, "a wrong guess!", { cookie: account.browser })).status);
    }
    expect(statuses).toEqual([...Array(RATE_POLICIES.perDevice.quota).fill(401), 429, 429]);
    expect((await logIn(account.email, account.password, { cookie: account.browser })).status).toBe(429);
  });

  it("opens no lane for another account's device cookie, a forged one, or one for an unknown email", async () => {
    const victim = await newAccount(uniqueIp());
    const stranger = await newAccount(uniqueIp());
    await fillFromStrangers(victim.email);
    // The victim's own token with another nonce: its signature no longer matches.
    const forged = victim.browser.replace(/\.[0-9A-Za-z]{22}\./, `.${"A".repeat(22)}.`);
    expect(forged).not.toBe(victim.browser);
    for (const cookie of [stranger.browser, forged, `todo_device=v1.9999999999.${"A".repeat(22)}.${"0".repeat(64)}`]) {
      expect((await logIn(victim.email, victim.password, { cookie })).status, cookie).toBe(429);
    }
    const unknown = uniqueEmail("nobody");
    for (let i = 0; i < RATE_POLICIES.perEmail.quota; i++) await logIn(unknown, "a wrong guess!");
    expect((await logIn(unknown, "a wrong guess!", { cookie: stranger.browser })).status).toBe(429);
  });

  it("sends the device cookie only to the sign-in route, out of reach of scripts and other sites", async () => {
    const account = await newAccount(uniqueIp());
    const res = await limited("/auth/login", {
      ip: uniqueIp(),
      body: { email: account.email, password: account.password },
    });
    expect(res.status).toBe(200);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^todo_device=[^;]+;/);
    for (const attribute of ["Path=/auth/login", "HttpOnly", "Secure", "SameSite=Strict"])
      expect(cookie).toContain(attribute);
    expect((await json(res)).token).toMatch(/^todo_sess_/);
  });
});
