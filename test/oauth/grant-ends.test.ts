import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { call, maxUser } from "../helpers";
import { mailbox } from "../support/mailbox";
import {
  authorize,
  authorizeUrl,
  connect,
  MCP,
  mcpCall,
  pkce,
  REDIRECT,
  registerClient,
  tokenRequest,
  toolCall,
} from "./support";

/** Events that end a connection outside the account page: the D1 row must say so, as the tokens do. */

const refresh = (clientId: string, refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, resource: MCP });

const grantKey = (token: string) => `grant:${token.split(":")[0]}:${token.split(":")[1]}`;

async function liveConnections(session: string): Promise<unknown[]> {
  const res = await call("/account/connections", { token: session });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: unknown[] }).data;
}

async function exportedConnections(session: string): Promise<{ revokedAt: string | null }[]> {
  const res = await call("/account/export", { token: session });
  expect(res.status).toBe(200);
  return ((await res.json()) as { connections: { revokedAt: string | null }[] }).connections;
}

describe("a replayed authorization code", () => {
  it("ends the grant in KV and the connection in D1: the page no longer lists it, the export says revoked", async () => {
    const user = await maxUser("oauth-code-replay");
    const clientId = await registerClient();
    const { verifier, challenge } = await pkce();
    const query = await authorize(authorizeUrl({ clientId, challenge }), user);
    const exchange = () =>
      tokenRequest({
        grant_type: "authorization_code",
        code: query.get("code")!,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource: MCP,
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    expect(await liveConnections(user.session)).toHaveLength(1);

    const replay = await exchange();
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });

    expect(await liveConnections(user.session)).toEqual([]);
    expect(await exportedConnections(user.session)).toEqual([
      expect.objectContaining({ revokedAt: expect.any(String) }),
    ]);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
    expect((await refresh(clientId, tokens.refresh_token)).status).toBe(400);
  });

  it("a wrong code for a live grant ends nothing", async () => {
    const user = await maxUser("oauth-code-wrong");
    const tokens = await connect(user);
    const [accountId, grantId] = tokens.access_token.split(":");
    const forged = await tokenRequest({
      grant_type: "authorization_code",
      code: `${accountId}:${grantId}:not-the-secret`,
      client_id: tokens.clientId,
      redirect_uri: REDIRECT,
      code_verifier: "x".repeat(43),
      resource: MCP,
    });
    expect(forged.status).toBe(400);
    expect(await liveConnections(user.session)).toHaveLength(1);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(200);
  });
});

describe("a password reset by a mailed link", () => {
  it("ends every OAuth connection and session; API keys keep working", async () => {
    const user = await maxUser("oauth-password-reset");
    const tokens = await connect(user, { name: "Agent" });
    const box = mailbox();
    const ip = uniqueIp();
    expect((await callWith(box.env, "/auth/password-reset", { body: { email: user.email }, ip })).status).toBe(202);
    const token = box.tokenFor(user.email, "/reset");
    const confirmed = await callWith(box.env, "/auth/password-reset/confirm", {
      body: { token, newPassword: "a brand new passphrase" },
      ip,
    });
    expect(confirmed.status).toBe(204);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
    const refreshed = await refresh(tokens.clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(400);
    await expect.poll(() => env.OAUTH_KV.get(grantKey(tokens.access_token))).toBeNull();
    expect((await call("/account/connections", { token: user.session })).status).toBe(401);
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
  });
});

describe("a password change", () => {
  it("ends every OAuth connection, like the other sessions; API keys keep working", async () => {
    const user = await maxUser("oauth-password-change");
    const first = await connect(user, { name: "First Agent" });
    const second = await connect(user, { name: "Second Agent" });
    expect(await liveConnections(user.session)).toHaveLength(2);

    const changed = await call("/account/password", {
      token: user.session,
      body: { currentPassword: user.password, newPassword: "a brand new passphrase" },
    });
    expect(changed.status).toBe(204);

    expect(await liveConnections(user.session)).toEqual([]);
    for (const tokens of [first, second]) {
      expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(401);
      const refreshed = await refresh(tokens.clientId, tokens.refresh_token);
      expect(refreshed.status).toBe(400);
      expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
      await expect.poll(() => env.OAUTH_KV.get(grantKey(tokens.access_token))).toBeNull();
    }
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
  });

  it("a wrong current password ends nothing", async () => {
    const user = await maxUser("oauth-password-wrong");
    const tokens = await connect(user);
    const refused = await call("/account/password", {
      token: user.session,
      body: { currentPassword: "not my password", newPassword: "a brand new passphrase" },
    });
    expect(refused.status).toBe(401);
    expect(await liveConnections(user.session)).toHaveLength(1);
    expect((await mcpCall(tokens.access_token, toolCall("list_tasks"))).status).toBe(200);
  });
});
