import { describe, expect, it } from "vitest";
import { call, createKey, maxUser, signUp } from "../helpers";
import {
  authorize,
  authorizeUrl,
  connect,
  decide,
  fetchWorker,
  MCP,
  mcpCall,
  ORIGIN,
  pkce,
  REDIRECT,
  registerClient,
  signInOnAuthorizePage,
  tokenRequest,
  toolCall,
} from "./support";

const METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;

async function rpcBody(res: Response) {
  const text = await res.text();
  return JSON.parse(text);
}

describe("scopes", () => {
  it("refuses a write tool to a read-only token with 403 insufficient_scope, and writes nothing", async () => {
    const user = await maxUser("oauth-read-only");
    const { access_token, scope } = await connect(user, { scope: "tasks:read" });
    expect(scope).toBe("tasks:read");

    const res = await mcpCall(access_token, toolCall("create_task", { title: "Must not exist" }));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", scope="tasks:write", resource_metadata="${METADATA}"`,
    );
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()) as object).toMatchObject({ code: "insufficient_scope", status: 403 });

    // Read tools work; nothing was written, neither by that call nor by a batch hiding a write.
    const batch = await mcpCall(access_token, [toolCall("list_tasks", {}, 1), toolCall("delete_task", { id: "x" }, 2)]);
    expect(batch.status).toBe(403);
    const listed = await rpcBody(await mcpCall(access_token, toolCall("list_tasks")));
    expect(listed.result.structuredContent.count).toBe(0);
    const tasks = await call("/api/v1/tasks", { token: user.key });
    expect(((await tasks.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("grants both scopes to a client that asks for none, and write brings read", async () => {
    const user = await maxUser("oauth-scopes");
    expect((await connect(user)).scope.split(" ").sort()).toEqual(["tasks:read", "tasks:write"]);
    expect((await connect(user, { scope: "tasks:write" })).scope.split(" ").sort()).toEqual([
      "tasks:read",
      "tasks:write",
    ]);
    // Unknown scopes are never granted.
    expect((await connect(user, { scope: "offline_access admin" })).scope.split(" ").sort()).toEqual([
      "tasks:read",
      "tasks:write",
    ]);
  });

  it("checks Max on every request, with the tool error max_required", async () => {
    const user = await signUp("oauth-free");
    const { access_token } = await connect(user);
    const res = await rpcBody(await mcpCall(access_token, toolCall("list_tasks")));
    expect(res.result.isError).toBe(true);
    expect(res.result.content[0].text).toMatch(/^max_required: /);
    // Calendars need no Max.
    const packs = await rpcBody(await mcpCall(access_token, toolCall("list_calendar_packs", { query: "Bavaria" })));
    expect(packs.result.isError).toBeFalsy();
  });
});

describe("credentials stay apart", () => {
  it("answers 401 to an OAuth token on the REST task and account routes (its audience is <origin>/mcp)", async () => {
    const user = await maxUser("oauth-rest");
    const { access_token } = await connect(user);
    for (const path of ["/api/v1/tasks", "/account", "/account/api-keys", "/account/connections"]) {
      const res = await fetchWorker(`${ORIGIN}${path}`, { headers: { Authorization: `Bearer ${access_token}` } });
      expect(res.status, path).toBe(401);
    }
  });

  it("answers 401 to a sign-in session token on /mcp", async () => {
    const user = await maxUser("oauth-session");
    const res = await mcpCall(user.session, toolCall("list_tasks"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${METADATA}"`);
  });

  it("keeps API keys working on /mcp next to OAuth", async () => {
    const user = await maxUser("oauth-keys");
    await connect(user);
    const key = await createKey(user.session, "second");
    const res = await rpcBody(await mcpCall(key.key, toolCall("list_tasks")));
    expect(res.result.structuredContent.count).toBe(0);
  });
});

describe("the authorization code flow refuses", () => {
  async function codeFor(user: { email: string; password: string }) {
    const clientId = await registerClient();
    const { verifier, challenge } = await pkce();
    const query = await authorize(authorizeUrl({ clientId, challenge }), user);
    return { clientId, verifier, code: query.get("code")! };
  }
  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    tokenRequest({
      grant_type: "authorization_code",
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource: MCP,
      ...extra,
    });

  it("a PKCE verifier that does not match the challenge", async () => {
    const user = await maxUser("oauth-pkce");
    const { clientId, code } = await codeFor(user);
    const res = await exchange(clientId, code, (await pkce()).verifier);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("a code used twice", async () => {
    const user = await maxUser("oauth-reuse");
    const { clientId, code, verifier } = await codeFor(user);
    expect((await exchange(clientId, code, verifier)).status).toBe(200);
    const again = await exchange(clientId, code, verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("a redirect URI the client did not register: a page here, never a redirect", async () => {
    const user = await maxUser("oauth-redirect");
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const url = authorizeUrl({ clientId, challenge, redirectUri: "https://attacker.example/callback" });
    const res = await fetchWorker(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("Invalid redirect URI");
    // At the token endpoint too: a code is bound to its redirect URI.
    const issued = await codeFor(user);
    const wrong = await exchange(issued.clientId, issued.code, issued.verifier, {
      redirect_uri: "https://client.example/other",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("a resource other than <origin>/mcp, at the authorize and the token endpoint", async () => {
    const user = await maxUser("oauth-resource");
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const res = await fetchWorker(authorizeUrl({ clientId, challenge, resource: `${ORIGIN}/api/v1` }), {
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);

    const code = await codeFor(user);
    const wrong = await exchange(code.clientId, code.code, code.verifier, { resource: "https://other.example/mcp" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_target" });
  });

  it("an authorization request without PKCE, from a public or a confidential client", async () => {
    const confidential = await fetchWorker(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_name: "Confidential", redirect_uris: [REDIRECT] }),
    });
    expect(confidential.status).toBe(201);
    const { client_id, client_secret } = (await confidential.json()) as { client_id: string; client_secret: string };
    expect(client_secret).toBeTruthy();
    for (const clientId of [await registerClient(), client_id]) {
      const url = new URL(authorizeUrl({ clientId, challenge: "x" }));
      url.searchParams.delete("code_challenge");
      url.searchParams.delete("code_challenge_method");
      const res = await fetchWorker(url, { redirect: "manual" });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get("location")!);
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("state")).toBe("state-123");
    }
  });

  it("a PKCE method other than S256", async () => {
    const clientId = await registerClient();
    const url = new URL(authorizeUrl({ clientId, challenge: "x" }));
    url.searchParams.set("code_challenge_method", "plain");
    const res = await fetchWorker(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("the authorize page", () => {
  it("returns access_denied with state and iss when the user clicks Deny", async () => {
    const user = await maxUser("oauth-deny");
    const clientId = await registerClient("Denied Agent");
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    const step = await signInOnAuthorizePage(url, user);
    const res = await decide(url, step, "deny");
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    expect(back.searchParams.get("code")).toBeNull();
    // Nothing connected.
    const listed = await call("/account/connections", { token: user.session });
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("shows a form with Email, Password and Sign in, the client's name and redirect host, and cannot be framed", async () => {
    const clientId = await registerClient("Framed <b>Agent</b>");
    const res = await fetchWorker(authorizeUrl({ clientId, challenge: (await pkce()).challenge }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain(">Sign in</button>");
    // The client's name is its own text: escaped, never markup.
    expect(html).toContain("Framed &#60;b&#62;Agent&#60;/b&#62;");
    expect(html).not.toContain("<b>Agent</b>");
    expect(html).toContain("client.example");
  });

  it("shows Allow and Deny, the scopes, and who is signed in, after a sign-in", async () => {
    const user = await maxUser("oauth-consent-page");
    const clientId = await registerClient("Consent Agent");
    const step = await signInOnAuthorizePage(authorizeUrl({ clientId, challenge: (await pkce()).challenge }), user);
    expect(step.html).toContain(">Allow</button>");
    expect(step.html).toContain(">Deny</button>");
    expect(step.html).toContain("tasks:write");
    expect(step.html).toContain(user.email);
    expect(step.cookie).toMatch(/^__Host-oauth-consent-/);
  });

  it("refuses a wrong password on the page, under the sign-in message of /auth/login", async () => {
    const user = await maxUser("oauth-wrong-password");
    const clientId = await registerClient();
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    const res = await fetchWorker(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: new URLSearchParams({ step: "sign-in", email: user.email, password: "wrong password" }).toString(),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Email or password is incorrect.");
    expect(html).not.toContain('name="handle"');
  });

  it("refuses forms posted from another site (CSRF) and forged or foreign consent", async () => {
    const user = await maxUser("oauth-csrf");
    const other = await maxUser("oauth-csrf-other");
    const clientId = await registerClient();
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    for (const origin of ["https://attacker.example", "null"]) {
      const res = await fetchWorker(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
        body: new URLSearchParams({ step: "sign-in", email: user.email, password: user.password }).toString(),
      });
      expect(res.status, origin).toBe(403);
    }
    const step = await signInOnAuthorizePage(url, user);
    // Without the browser's binding cookie: another browser cannot use the handle.
    expect((await decide(url, { ...step, cookie: "" }, "allow")).status).toBe(400);
    // Another account's ticket with this handle: refused.
    const theirs = await signInOnAuthorizePage(url, other);
    expect((await decide(url, { ...step, ticket: theirs.ticket }, "allow")).status).toBe(400);
    // The real one works once, then the handle is used up.
    expect((await decide(url, step, "allow")).status).toBe(302);
    expect((await decide(url, step, "allow")).status).toBe(400);
  });
});
