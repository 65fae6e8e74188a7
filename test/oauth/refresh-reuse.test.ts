import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, maxUser } from "../helpers";
import { connect, MCP, mcpCall, tokenRequest, type Tokens, toolCall } from "./support";

/**
 * Refresh-token rotation with reuse detection (OAuth 2.1 §4.3.1, RFC 9700 §4.14.2), through the real token
 * endpoint. A replaced refresh token still works for a client's retry within 60 seconds of its
 * replacement; after that, presenting it ends the whole grant. Time moves by the Worker's clock, the one the
 * provider measures token lifetimes with.
 */

afterEach(() => vi.restoreAllMocks());

const realNow = Date.now.bind(Date);
const later = (seconds: number) => vi.spyOn(Date, "now").mockImplementation(() => realNow() + seconds * 1000);

const refresh = (clientId: string, refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, resource: MCP });

async function refreshed(clientId: string, refreshToken: string): Promise<Tokens> {
  const res = await refresh(clientId, refreshToken);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Tokens;
}

const works = async (accessToken: string) => (await mcpCall(accessToken, toolCall("list_tasks"))).status;

async function liveConnections(session: string): Promise<unknown[]> {
  return ((await (await call("/account/connections", { token: session })).json()) as { data: unknown[] }).data;
}

const grantKey = (token: string) => `grant:${token.split(":")[0]}:${token.split(":")[1]}`;

/** Presenting `stale` ends everything: every token of the grant, the connection in D1 and the grant in KV. */
async function expectGrantEnded(session: string, clientId: string, stale: string, tokens: Tokens[]) {
  const res = await refresh(clientId, stale);
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/again/) });
  for (const { access_token, refresh_token } of tokens) {
    expect(await works(access_token)).toBe(401);
    expect((await refresh(clientId, refresh_token)).status).toBe(400);
  }
  expect(await liveConnections(session)).toEqual([]);
  await expect.poll(() => env.OAUTH_KV.get(grantKey(stale))).toBeNull();
}

describe("a replaced refresh token", () => {
  it("still works for a retry within the grace period: the retry's pair is the live one", async () => {
    const user = await maxUser("refresh-grace");
    const first = await connect(user);
    const lost = await refreshed(first.clientId, first.refresh_token);
    later(30);
    const retried = await refreshed(first.clientId, first.refresh_token);
    expect(await works(retried.access_token)).toBe(200);
    const next = await refreshed(first.clientId, retried.refresh_token);
    expect(await works(next.access_token)).toBe(200);
    // The lost response's refresh token was replaced by the retry: it does not refresh.
    expect((await refresh(first.clientId, lost.refresh_token)).status).toBe(400);
  });

  it("revokes the whole grant when presented after the grace period", async () => {
    const user = await maxUser("refresh-reuse");
    const first = await connect(user);
    const second = await refreshed(first.clientId, first.refresh_token);
    expect(await works(second.access_token)).toBe(200);
    later(61);
    await expectGrantEnded(user.session, first.clientId, first.refresh_token, [first, second]);
    const exported = await call("/account/export", { token: user.session });
    const { connections } = (await exported.json()) as { connections: { revokedAt: string | null }[] };
    expect(connections).toEqual([expect.objectContaining({ revokedAt: expect.any(String) })]);
  });

  it("revokes too when it is older than the previous one (two rotations back)", async () => {
    const user = await maxUser("refresh-reuse-older");
    const first = await connect(user);
    const second = await refreshed(first.clientId, first.refresh_token);
    const third = await refreshed(first.clientId, second.refresh_token);
    later(61);
    await expectGrantEnded(user.session, first.clientId, first.refresh_token, [third]);
  });

  it("revokes when it is the pair a retry abandoned, presented after the grace period", async () => {
    const user = await maxUser("refresh-reuse-abandoned");
    const first = await connect(user);
    const abandoned = await refreshed(first.clientId, first.refresh_token);
    const retried = await refreshed(first.clientId, first.refresh_token);
    later(61);
    await expectGrantEnded(user.session, first.clientId, abandoned.refresh_token, [retried]);
  });

  it("the current refresh token is never reuse, however late", async () => {
    const user = await maxUser("refresh-current-late");
    const first = await connect(user);
    later(3600);
    const next = await refreshed(first.clientId, first.refresh_token);
    expect(await works(next.access_token)).toBe(200);
  });

  it("a connection made before reuse detection (no refresh token on record) is adopted on its next refresh", async () => {
    const user = await maxUser("refresh-adopted");
    const first = await connect(user);
    await env.DB.prepare(
      "DELETE FROM oauth_refresh_tokens WHERE connection_id IN (SELECT id FROM oauth_connections WHERE grant_id = ?)",
    )
      .bind(first.refresh_token.split(":")[1])
      .run();
    const second = await refreshed(first.clientId, first.refresh_token);
    later(61);
    await expectGrantEnded(user.session, first.clientId, first.refresh_token, [second]);
  });
});

describe("concurrent refreshes of one token", () => {
  it("leave one live token chain: of the pairs issued, one access token works and one refresh token refreshes", async () => {
    const user = await maxUser("refresh-concurrent");
    const first = await connect(user);
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(first.clientId, first.refresh_token)));
    const issued: Tokens[] = [];
    for (const res of answers) {
      if (res.status === 200) issued.push((await res.json()) as Tokens);
      else expect([res.status, await res.json()]).toEqual([400, expect.objectContaining({ error: "invalid_grant" })]);
    }
    expect(issued.length).toBeGreaterThanOrEqual(1);
    const statuses = await Promise.all(issued.map(({ access_token }) => works(access_token)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const live = issued[statuses.indexOf(200)]!;
    for (const pair of issued.filter((pair) => pair !== live))
      expect((await refresh(first.clientId, pair.refresh_token)).status).toBe(400);
    const next = await refreshed(first.clientId, live.refresh_token);
    expect(await works(next.access_token)).toBe(200);
    expect(await liveConnections(user.session)).toHaveLength(1);
  });

  it("a retry within the grace period retires the access token of the pair it replaces", async () => {
    const user = await maxUser("refresh-retry-retires");
    const first = await connect(user);
    const lost = await refreshed(first.clientId, first.refresh_token);
    expect(await works(lost.access_token)).toBe(200);
    const retried = await refreshed(first.clientId, first.refresh_token);
    expect(await works(lost.access_token)).toBe(401);
    expect(await works(first.access_token)).toBe(401);
    expect(await works(retried.access_token)).toBe(200);
  });
});
