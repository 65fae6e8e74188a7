import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/control/api-keys/format";
import { forgedKey } from "../support/forged";
import { accountSql, call, createKey, createTask, grant, json, maxUser, signUpOverHttp } from "../helpers";

const taskCalls = (id = "0193c000-0000-7000-8000-000000000000") => [
  { path: "/api/v1/tasks", method: "GET" },
  { path: "/api/v1/tasks", method: "POST", body: { title: "x" } },
  { path: `/api/v1/tasks/${id}`, method: "GET" },
  { path: `/api/v1/tasks/${id}`, method: "PATCH", body: { title: "x" } },
  { path: `/api/v1/tasks/${id}`, method: "DELETE" },
];

async function expectUnauthorized(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect((await json(res)).code).toBe("unauthorized");
}

// Signed by this server for an account that does not exist: reaches the (empty) object, which writes nothing.
const signedForNobody = await generateApiKey(env.CREDENTIAL_SECRET, crypto.randomUUID());

describe("task endpoint authentication (every task route)", () => {
  const badCredentials: [string, Record<string, string>][] = [
    ["no Authorization header", {}],
    ["a non-Bearer scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["a malformed key", { authorization: "Bearer todo_live_short" }],
    ["a key with a wrong checksum", { authorization: `Bearer ${forgedKey().slice(0, -1)}A` }],
    ["a forged key (checksum right, MAC made up)", { authorization: `Bearer ${forgedKey()}` }],
    [
      "a well-formed unknown key (signed by this server, for an account that does not exist)",
      { authorization: `Bearer ${signedForNobody}` },
    ],
  ];
  for (const [label, headers] of badCredentials) {
    it(`answers 401 unauthorized with ${label}`, async () => {
      for (const request of taskCalls()) {
        await expectUnauthorized(await call(request.path, { method: request.method, body: request.body, headers }));
      }
    });
  }

  it("refuses a sign-in session token on task routes", async () => {
    const account = await signUpOverHttp();
    await grant(account.email, "max");
    for (const request of taskCalls()) {
      await expectUnauthorized(
        await call(request.path, { method: request.method, body: request.body, token: account.session }),
      );
    }
  });

  it("checks credentials before the body: an unauthenticated POST with a bad body is 401", async () => {
    await expectUnauthorized(await call("/api/v1/tasks", { body: { nonsense: true } }));
    await expectUnauthorized(await call("/api/v1/tasks", { body: "{broken" }));
  });

  it("answers 403 max_required for a valid key without Max, before validating the body", async () => {
    const account = await signUpOverHttp("free");
    const { key } = await createKey(account.session);
    for (const request of [...taskCalls(), { path: "/api/v1/tasks", method: "POST", body: { bad: 1 } }]) {
      const res = await call(request.path, { method: request.method, body: request.body, token: key });
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("max_required");
    }
  });

  it("answers 403 when Max has expired, and 200 again when it is renewed", async () => {
    const user = await maxUser();
    await grant(user.email, "max", "2020-01-01T00:00:00Z");
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(403);
    await grant(user.email, "max", "2099-01-01T00:00:00Z");
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    await grant(user.email, "free");
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(403);
  });

  it("refuses a revoked key on the very next request", async () => {
    const user = await maxUser();
    expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    expect((await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session })).status).toBe(204);
    await expectUnauthorized(await call("/api/v1/tasks", { token: user.key }));
  });

  it("needs no credentials for the API root", async () => {
    const res = await call("/api/v1/");
    expect(res.status).toBe(200);
    const root = await json(res);
    expect(root.version).toBe("1.0.0");
    expect(root.links).toMatchObject({
      openapi: "http://example.com/api/v1/openapi.json",
      docs: "http://example.com/api/v1/docs",
      mcp: "http://example.com/mcp",
      skill: "http://example.com/SKILL.md",
      llms: "http://example.com/llms.txt",
    });
    expect(root.contact).toContain("@");
  });
});

describe("API keys", () => {
  it("shows the key once and stores only its SHA-256 and a hint", async () => {
    const account = await signUpOverHttp();
    const res = await call("/account/api-keys", { token: account.session, body: { name: "laptop agent" } });
    expect(res.status).toBe(201);
    const created = await json(res);
    // The account's id (32 hex digits) routes the key to its object; then 32 random characters, their MAC
    // (22) and a checksum (6).
    expect(created.key).toMatch(new RegExp(`^todo_live_${account.accountId.replaceAll("-", "")}[0-9A-Za-z]{60}$`));
    expect(created.hint).toBe(`${created.key.slice(0, 14)}…${created.key.slice(-4)}`);

    const listed = await json(await call("/account/api-keys", { token: account.session }));
    expect(listed.data).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(listed.data[0]).toMatchObject({ id: created.id, name: "laptop agent", hint: created.hint, revokedAt: null });

    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(created.key)));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.id).first();
    expect(row?.key_hash).toBe(hex);
    // The account's object, which judges the key, holds its hash too, and nothing more of it.
    const [held] = await accountSql(account.accountId, "SELECT * FROM api_keys WHERE id = ?", created.id);
    expect(held?.key_hash).toBe(hex);
    const secret = created.key.slice(42, 74);
    for (const dump of [
      JSON.stringify(await env.DB.prepare("SELECT * FROM api_keys").all()),
      JSON.stringify(await accountSql(account.accountId, "SELECT * FROM api_keys")),
    ]) {
      expect(dump).not.toContain(created.key);
      expect(dump).not.toContain(secret);
    }
  });

  it("records lastUsedAt when a key is used", async () => {
    const user = await maxUser();
    await call("/api/v1/tasks", { token: user.key });
    // The account's object records it while it judges the key; the account page shows it.
    const listed = await json(await call("/account/api-keys", { token: user.session }));
    expect(listed.data.find((key: { id: string }) => key.id === user.keyId).lastUsedAt).toMatch(/Z$/);
  });

  it("cannot revoke another account's key", async () => {
    const alice = await maxUser("alice");
    const bob = await signUpOverHttp("bob");
    expect((await call(`/account/api-keys/${alice.keyId}`, { method: "DELETE", token: bob.session })).status).toBe(404);
    expect((await call("/api/v1/tasks", { token: alice.key })).status).toBe(200);
  });

  it("refuses an API key on account routes", async () => {
    const user = await maxUser();
    await expectUnauthorized(await call("/account", { token: user.key }));
    await expectUnauthorized(await call("/account/api-keys", { token: user.key, body: { name: "x" } }));
  });

  it("keeps working for tasks created before a revocation of another key", async () => {
    const user = await maxUser();
    const second = await createKey(user.session, "second");
    await createTask(second.key);
    await call(`/account/api-keys/${second.id}`, { method: "DELETE", token: user.session });
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).meta.count).toBe(1);
  });
});
