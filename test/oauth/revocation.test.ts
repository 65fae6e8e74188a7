import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountSql, call, maxUser } from "../helpers";
import {
  authorize,
  authorizeUrl,
  connect,
  fetchWorker,
  MCP,
  mcpCall,
  ORIGIN,
  pkce,
  REDIRECT,
  tokenRequest,
  toolCall,
} from "./support";

const refresh = (clientId: string, refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, resource: MCP });

const grantKey = (token: string) => {
  const [user, grant] = token.split(":");
  return `grant:${user}:${grant}`;
};

async function connectionsOf(session: string) {
  const res = await call("/account/connections", { token: session });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string; clientName: string; redirectHost: string; scopes: string[] }[] })
    .data;
}

describe("connections in the account", () => {
  it("lists a connection with its name, redirect host, scopes and dates, and revokes it for good", async () => {
    const user = await maxUser("oauth-list");
    const tokens = await connect(user, { name: "Listed Agent" });
    const [connection, ...rest] = await connectionsOf(user.session);
    expect(rest).toEqual([]);
    expect(connection).toMatchObject({
      clientName: "Listed Agent",
      redirectHost: "client.example",
      scopes: ["tasks:read", "tasks:write"],
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
    });

    // Works, then revoked: the access token and the refresh token fail on the very next request.
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(200);
    const revoked = await call(`/account/connections/${connection!.id}`, { method: "DELETE", token: user.session });
    expect(revoked.status).toBe(204);
    const mcp = await mcpCall(tokens.access_token, toolCall("list_tasks"));
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toContain("resource_metadata=");
    const refreshed = await refresh(tokens.clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
    expect(await connectionsOf(user.session)).toEqual([]);
    // Gone: a second revocation, or another account's id, is 404.
    expect(
      (await call(`/account/connections/${connection!.id}`, { method: "DELETE", token: user.session })).status,
    ).toBe(404);
  });

  it("does not rely on KV: with the grant still in KV, a revoked connection's tokens are refused at once", async () => {
    const user = await maxUser("oauth-d1-truth");
    const tokens = await connect(user);
    const [connection] = await connectionsOf(user.session);
    // What another location still sees for up to a minute: the grant in KV. Only the stores that
    // judge say revoked: the account's object for /mcp, D1 for a refresh.
    await accountSql(
      user.accountId,
      "UPDATE connections SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
      connection!.id,
    );
    expect(await env.OAUTH_KV.get(grantKey(tokens.access_token))).not.toBeNull();
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
    await env.DB.prepare("UPDATE oauth_connections SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
      .bind(connection!.id)
      .run();
    expect((await refresh(tokens.clientId, tokens.refresh_token)).status).toBe(400);
  });

  it("clears the grant from KV too when the account page revokes it", async () => {
    const user = await maxUser("oauth-kv-cleanup");
    const tokens = await connect(user);
    const [connection] = await connectionsOf(user.session);
    expect(
      (await call(`/account/connections/${connection!.id}`, { method: "DELETE", token: user.session })).status,
    ).toBe(204);
    await expect.poll(() => env.OAUTH_KV.get(grantKey(tokens.access_token))).toBeNull();
  });

  it("hides another account's connection (404) and needs a session", async () => {
    const owner = await maxUser("oauth-owner");
    const stranger = await maxUser("oauth-stranger");
    await connect(owner);
    const [connection] = await connectionsOf(owner.session);
    const res = await call(`/account/connections/${connection!.id}`, { method: "DELETE", token: stranger.session });
    expect(res.status).toBe(404);
    expect((await call("/account/connections", { token: owner.key })).status).toBe(401);
    expect(await connectionsOf(owner.session)).toHaveLength(1);
  });

  it("replaces the earlier connection when the same app connects again", async () => {
    const user = await maxUser("oauth-reconnect");
    const first = await connect(user, { name: "Twice Agent" });
    const [before] = await connectionsOf(user.session);
    // The same registered client authorizes again (a new consent): one connection remains, the new one.
    const { verifier, challenge } = await pkce();
    const query = await authorize(authorizeUrl({ clientId: first.clientId, challenge }), user);
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code: query.get("code")!,
      client_id: first.clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource: MCP,
    });
    expect(res.status).toBe(200);
    const after = await connectionsOf(user.session);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    expect((await mcpCall(first.access_token, toolCall("list_tasks"))).status).toBe(401);
  });

  it("follows a client's own RFC 7009 revocation of its refresh token", async () => {
    const user = await maxUser("oauth-rfc7009");
    const tokens = await connect(user);
    const res = await tokenRequest({
      token: tokens.refresh_token,
      token_type_hint: "refresh_token",
      client_id: tokens.clientId,
    });
    expect(res.status).toBe(200);
    await expect.poll(() => connectionsOf(user.session)).toEqual([]);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
  });

  it("ends every connection with the account: erased, its tokens are refused and its grants leave KV", async () => {
    const user = await maxUser("oauth-erasure");
    const tokens = await connect(user);
    const erased = await fetchWorker(`${ORIGIN}/account`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${user.session}`, "Content-Type": "application/json" },
      body: JSON.stringify({ password: user.password }),
    });
    expect(erased.status).toBe(204);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
    expect((await refresh(tokens.clientId, tokens.refresh_token)).status).toBe(400);
    await expect.poll(() => env.OAUTH_KV.get(grantKey(tokens.access_token))).toBeNull();
  });
});
