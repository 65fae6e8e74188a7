import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { accountSql, maxUser } from "../helpers";
import { authorizeUrl, connect, fetchWorker, MCP, ORIGIN, pkce, REDIRECT, registerClient } from "../oauth/support";
import { bodyTextOf, jsonSchemaOf, pollutionKey, unicodeEdge } from "./arbitraries";
import { PROBLEM_CODES } from "./support";

/**
 * Property-based fuzzing of the OAuth endpoints: dynamic registration, the authorize page (its query
 * and its forms) and the token endpoint. For each generated request:
 *   - no response is 5xx;
 *   - a redirect goes only to the client's registered redirect URI, never to a URI the request named;
 *   - an OAuth endpoint's 4xx is an RFC 6749 error (`{error}`), a page's is HTML, a rate limit problem+json;
 *   - nothing is connected: the account's connections do not change.
 * FUZZ_RUNS (20 in `npm test`, 200 in `npm run test:slow`) sets the runs per endpoint, as in fuzz.test.ts.
 */
const RUNS = Number((env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? "200") || 200;
const SEED = Number((env as unknown as { FUZZ_SEED?: string }).FUZZ_SEED ?? Date.now() % 2 ** 31);
const params = () => ({ numRuns: RUNS, seed: SEED, endOnFailure: true });

const totals = { tried: 0, fiveXx: 0, perTarget: new Map<string, number>() };

type User = Awaited<ReturnType<typeof maxUser>>;
let user: User;
let clientId: string;
let refreshToken: string;
let accessToken: string;

/** The account's connections, as D1 lists them (and judges a refresh) and as its object judges /mcp. */
const connections = async (accountId: string) => ({
  d1: await env.DB.prepare(
    "SELECT count(*) AS n, group_concat(coalesce(revoked_at, ''), ',') AS r FROM oauth_connections WHERE account_id = ?",
  )
    .bind(accountId)
    .first(),
  object: await accountSql(accountId, "SELECT id, revoked_at FROM connections ORDER BY id"),
});

async function check(target: string, request: Request): Promise<void> {
  const before = await connections(user.accountId);
  const response = await fetchWorker(request);
  const text = await response.text();
  totals.tried++;
  totals.perTarget.set(target, (totals.perTarget.get(target) ?? 0) + 1);
  const where = `${request.method} ${request.url.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 500) totals.fiveXx++;
  expect(response.status, where).toBeLessThan(500);
  const location = response.headers.get("location");
  if (location) expect(location.startsWith(`${REDIRECT}?`), where).toBe(true);
  if (response.status >= 400) {
    const type = response.headers.get("content-type") ?? "";
    if (type.startsWith("application/problem+json")) expect(PROBLEM_CODES.has(JSON.parse(text).code), where).toBe(true);
    else if (type.startsWith("application/json")) expect(typeof JSON.parse(text).error, where).toBe("string");
    else expect(type, where).toMatch(/^text\/html/);
  }
  expect(await connections(user.accountId), where).toEqual(before);
}

beforeAll(async () => {
  user = await maxUser("fuzz-oauth");
  const tokens = await connect(user);
  clientId = tokens.clientId;
  refreshToken = tokens.refresh_token;
  accessToken = tokens.access_token;
});

afterAll(() => {
  const per = [...totals.perTarget].map(([k, v]) => `${k}=${v}`).join(", ");
  console.log(
    `[hardening] OAuth fuzz: ${totals.tried} inputs tried (FUZZ_RUNS=${RUNS}, seed ${SEED}), 5xx seen: ${totals.fiveXx}. Per target: ${per}`,
  );
});

/** A value for a parameter: the right one, a near miss, or junk. */
const variant = (good: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(good) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: unicodeEdge },
    { weight: 1, arbitrary: pollutionKey },
    { weight: 1, arbitrary: fc.constant(`${good}x`) },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "https://attacker.example/cb", "javascript:alert(1)", "a:b:c") },
  );

/** Some of `fields`, each in a variant, plus maybe an unknown or repeated parameter. */
const formOf = (fields: Record<string, string>) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, variant(v)])), { requiredKeys: [] }),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(fields)), fc.string({ maxLength: 10 })), fc.string()), {
        maxLength: 2,
      }),
    )
    .map(([record, extra]) => {
      const form = new URLSearchParams(record as Record<string, string>);
      for (const [k, v] of extra) form.append(k, v);
      return form;
    });

const ClientMetadata = z.object({
  client_name: z.string().max(300),
  redirect_uris: z.array(z.string()).max(5),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token", "client_credentials", "implicit"])),
  response_types: z.array(z.enum(["code", "token"])),
  token_endpoint_auth_method: z.enum(["none", "client_secret_basic", "client_secret_post", "private_key_jwt"]),
  scope: z.string(),
  client_uri: z.string(),
  logo_uri: z.string(),
  contacts: z.array(z.string()),
  jwks_uri: z.string(),
});

describe(`fuzzing OAuth (${RUNS} runs per endpoint)`, { timeout: 30_000 + RUNS * 600 }, () => {
  it("POST /oauth/register: client metadata", async () => {
    await fc.assert(
      fc.asyncProperty(bodyTextOf(jsonSchemaOf(ClientMetadata)), fc.boolean(), async (body, json) => {
        const headers = { "Content-Type": json ? "application/json" : "text/plain" };
        await check("register", new Request(`${ORIGIN}/oauth/register`, { method: "POST", headers, body }));
      }),
      params(),
    );
  });

  it("GET /oauth/authorize: query strings", async () => {
    const { challenge } = await pkce();
    const good = Object.fromEntries(new URL(authorizeUrl({ clientId, challenge })).searchParams);
    await fc.assert(
      fc.asyncProperty(formOf(good), async (query) => {
        await check("authorize GET", new Request(`${ORIGIN}/oauth/authorize?${query}`, { redirect: "manual" }));
      }),
      params(),
    );
  });

  it("POST /oauth/authorize: sign-in and consent forms", async () => {
    const { challenge } = await pkce();
    const url = authorizeUrl({ clientId, challenge });
    const fields = {
      step: "consent",
      email: user.email,
      password: "wrong password",
      handle: "A".repeat(43),
      ticket: `${user.accountId}.9999999999.${"0".repeat(64)}`,
      decision: "allow",
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), fc.constantFrom(ORIGIN, undefined), async (form, origin) => {
        // The right password never: a sign-in that works is not a refusal (and costs a PBKDF2 each).
        if (form.get("password") === user.password) form.set("password", "wrong password");
        const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
        if (origin) headers.Origin = origin;
        await check(
          "authorize POST",
          new Request(url, { method: "POST", headers, body: form.toString(), redirect: "manual" }),
        );
      }),
      params(),
    );
  });

  it("POST /oauth/token: code, refresh and revocation requests", async () => {
    const other = await registerClient("Fuzz Other");
    const fields = {
      grant_type: "refresh_token",
      refresh_token: `${refreshToken}x`,
      code: `${user.accountId}:abcdefghijklmnop:${"a".repeat(32)}`,
      code_verifier: "v".repeat(43),
      client_id: other,
      redirect_uri: REDIRECT,
      resource: MCP,
      scope: "tasks:read",
      token: `${refreshToken}x`,
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), fc.boolean(), async (form, urlencoded) => {
        const headers = { "Content-Type": urlencoded ? "application/x-www-form-urlencoded" : "application/json" };
        await check("token", new Request(`${ORIGIN}/oauth/token`, { method: "POST", headers, body: form.toString() }));
      }),
      params(),
    );
  });

  it("POST /mcp: bearer tokens shaped like the provider's (<user>:<grant>:<secret>)", async () => {
    const [account, grant, secret] = accessToken.split(":") as [string, string, string];
    const part = (good: string) =>
      fc.oneof(
        fc.constant(good),
        fc.string({ minLength: 1, maxLength: 20 }).filter((p) => /^[\x21-\x39\x3b-\x7e]+$/.test(p)),
        fc.constantFrom("x".repeat(600), "a", "-", "%00"),
      );
    await fc.assert(
      fc.asyncProperty(part(account), part(grant), part(secret), async (a, g, t) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_tasks" } });
        const headers = {
          Authorization: `Bearer ${a}:${g}:${t}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        };
        await check("mcp bearer", new Request(MCP, { method: "POST", headers, body }));
      }),
      params(),
    );
  });
});

it("sanity: the fuzzed connection still refreshes", async () => {
  const res = await fetchWorker(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: clientId,
    }).toString(),
  });
  expect(res.status).toBe(200);
});
