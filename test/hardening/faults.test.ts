import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { base62Fixed, crc32, randomBase62, sha256Hex } from "../../src/domain/crypto";
import { accountSql, call, createTask, json, maxUser, uniqueEmail } from "../helpers";
import {
  callWith,
  type FaultPlan,
  faultyD1,
  OBJECT_OUTAGES,
  type SqlFaultPlan,
  unreachableAccounts,
  withFaultyObjectSql,
  withFaults,
} from "./support";

/**
 * Storage faults, where the data lives: D1 (accounts, sessions, the account page, the legacy-key
 * directory) and each account's Durable Object (tasks, lists, search, idempotency, and what a task
 * request judges). A fault a retry can outlast is 503 `unavailable` with Retry-After; one it cannot is
 * 500 `internal`; neither ever shows a stack, SQL or a driver message, and neither writes anything.
 */

/** The messages D1 and workerd produce when the database cannot answer. */
const D1_OUTAGES = [
  "D1_ERROR: Network connection lost.",
  "D1 DB is overloaded. Requests queued for too long.",
  "D1_ERROR: Durable Object reset because its code was updated.",
  "D1_ERROR: D1 storage operation exceeded timeout which caused object to be reset.",
  "Network connection lost.",
  "D1_ERROR: internal error",
];

async function expectUnavailable(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  const body = JSON.parse(text);
  expect(body.code).toBe("unavailable");
  // No stack, no SQL, no driver message reaches the client.
  expect(text).not.toMatch(/\bat \S+:\d+|D1_ERROR|Durable Object|SELECT|INSERT|Failed query|__injected/);
}

async function expectInternal(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBe(500);
  expect(res.headers.get("retry-after")).toBeNull();
  expect(JSON.parse(text).code).toBe("internal");
  expect(text).not.toMatch(/\bat \S+:\d+|TOOBIG|SQLITE|D1_|SELECT|serialize|constraint/i);
}

const writes = (sql: string) => /^\s*(insert|update|delete)\b/i.test(sql);
/** Writes of the account's data (tasks, lists, search, idempotency), not a key's lastUsedAt. */
const dataWrites = (sql: string) => writes(sql) && !/"(api_keys|connections)"/.test(sql);
const everything = () => true;
const plan = (p: Partial<FaultPlan>): FaultPlan => ({ injected: 0, ...p });
const sqlPlan = (p: Partial<SqlFaultPlan>): SqlFaultPlan => ({ injected: 0, writes: 0, ...p });
const MCP_HEADERS = { Accept: "application/json, text/event-stream" };

/** The Worker with the account objects out of reach (and D1 as `db`, the real one by default). */
const withObjectsDown =
  (message: string, db: D1Database = env.DB) =>
  (path: string, options: Parameters<typeof call>[1] = {}) =>
    callWith({ ACCOUNTS: unreachableAccounts(env.ACCOUNTS, { message, injected: 0 }), DB: db }, path, options);

/** The account's tasks as its object has them, tombstones included: any write shows up here. */
const snapshot = (accountId: string) =>
  accountSql(accountId, "SELECT id, updated_at, completed, deleted_at, repeat FROM tasks ORDER BY id");

/** Every task route (REST and MCP), for the user and one of their tasks. */
const taskRoutes = (user: { key: string }, id: string) =>
  [
    ["/api/v1/tasks", { token: user.key }],
    ["/api/v1/tasks", { token: user.key, body: { title: "x" } }],
    [`/api/v1/tasks/${id}`, { token: user.key, method: "PATCH", body: { completed: true } }],
    [`/api/v1/tasks/${id}`, { token: user.key, method: "DELETE" }],
    ["/api/v1/lists", { token: user.key }],
    [
      "/mcp",
      {
        token: user.key,
        headers: MCP_HEADERS,
        body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      },
    ],
  ] as const;

describe("storage faults", () => {
  let logged: MockInstance<typeof console.error>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    // The log names the failure, never the SQL parameters drizzle wraps it with.
    for (const args of logged.mock.calls) expect(args.join(" ")).not.toMatch(/Failed query|params:/);
    logged.mockRestore();
  });

  for (const message of D1_OUTAGES) {
    it(`answers 503 unavailable with Retry-After on every D1 route when D1 says "${message}", and task requests go on`, async () => {
      const user = await maxUser("outage");
      const faulty = withFaults(plan({ failWhen: everything, message }));
      for (const [path, options] of [
        ["/auth/signup", { body: { email: uniqueEmail("down"), password: "correct horse battery" } }],
        ["/auth/login", { body: { email: user.email, password: user.password } }],
        ["/account", { token: user.session }],
        ["/account/api-keys", { token: user.session }],
        ["/account/api-keys", { token: user.session, body: { name: "k" } }],
      ] as const) {
        await expectUnavailable(await faulty(path, options));
      }
      // A task request reaches no D1 (a key names its account's object).
      expect((await faulty("/api/v1/tasks", { token: user.key, body: { title: "while D1 is down" } })).status).toBe(
        201,
      );
      expect((await faulty("/api/v1/tasks", { token: user.key })).status).toBe(200);
    });
  }

  it("answers 503 for a key issued before keys named their account while D1's directory is down, then remembers it", async () => {
    const user = await maxUser("legacy-key");
    // A key as the single-database release issued it: no account inside, found through D1 by its hash.
    const body = `todo_live_${randomBase62(32)}`;
    const key = body + base62Fixed(crc32(body), 6);
    const keyHash = await sha256Hex(key);
    await env.DB.prepare(
      "INSERT INTO api_keys (id, account_id, name, key_hash, hint) VALUES (?, ?, 'old', ?, 'todo_live_x…')",
    )
      .bind(`legacy-${user.accountId}`, user.accountId, keyHash)
      .run();
    await accountSql(
      user.accountId,
      "INSERT INTO api_keys (key_hash, id) VALUES (?, ?)",
      keyHash,
      `legacy-${user.accountId}`,
    );
    const down = withFaults(plan({ failWhen: everything }));
    await expectUnavailable(await down("/api/v1/tasks", { token: key }));
    expect((await call("/api/v1/tasks", { token: key })).status).toBe(200);
    // A hash never changes owner: once found, the isolate keeps it and D1 is not asked again.
    expect((await down("/api/v1/tasks", { token: key })).status).toBe(200);
  });

  for (const message of OBJECT_OUTAGES) {
    it(`answers 503 unavailable with Retry-After on every task route when the account's object says "${message}"`, async () => {
      const user = await maxUser("object-outage");
      const task = await createTask(user.key);
      const before = await snapshot(user.accountId);
      const faulty = withObjectsDown(message);
      for (const [path, options] of taskRoutes(user, task.id as string)) {
        await expectUnavailable(await faulty(path, options));
      }
      // The account page's parts that the object holds: key use, and a new key (which it must know first).
      await expectUnavailable(await faulty("/account/api-keys", { token: user.session }));
      await expectUnavailable(await faulty("/account/api-keys", { token: user.session, body: { name: "k" } }));
      expect(await snapshot(user.accountId)).toEqual(before);
      const keys = await json(await call("/account/api-keys", { token: user.session }));
      expect(keys.data.map((k: { id: string }) => k.id)).toEqual([user.keyId]);
    });
  }

  // Limits and mistakes that a retry cannot fix: the same request fails the same way every time.
  for (const message of [
    "string or blob too big: SQLITE_TOOBIG",
    "too many SQL variables at offset 412: SQLITE_ERROR",
    "UNIQUE constraint failed: tasks.id: SQLITE_CONSTRAINT",
  ]) {
    it(`answers 500 internal without Retry-After, never a transient 503, when the object's SQLite says "${message}"`, async () => {
      const user = await maxUser("permanent");
      const p = sqlPlan({ failWhen: (sql) => /\bfrom "?tasks"?/i.test(sql) && !writes(sql), message });
      await withFaultyObjectSql(user.accountId, p, async () => {
        for (const path of [
          "/api/v1/tasks",
          "/api/v1/tasks?limit=10",
          `/api/v1/tasks?since=${encodeURIComponent(new Date().toISOString())}`,
        ]) {
          await expectInternal(await call(path, { token: user.key }));
        }
      });
      expect(p.injected).toBe(3);
    });
  }

  it("answers 500 internal when a call to the object fails for good (a value it cannot carry)", async () => {
    const user = await maxUser("permanent-call");
    const faulty = withObjectsDown(
      'Could not serialize object of type "Foo". This type does not support serialization.',
    );
    await expectInternal(await faulty("/api/v1/tasks", { token: user.key }));
  });

  it("answers 503 when only writes fail, after authentication succeeded, and writes nothing", async () => {
    const user = await maxUser("writes-down");
    const task = await createTask(user.key, { title: "keep me" });
    const before = await snapshot(user.accountId);
    const p = sqlPlan({ failWhen: dataWrites });
    await withFaultyObjectSql(user.accountId, p, async () => {
      await expectUnavailable(await call("/api/v1/tasks", { token: user.key, body: { title: "new" } }));
      await expectUnavailable(
        await call(`/api/v1/tasks/${task.id}`, { token: user.key, method: "PATCH", body: { title: "changed" } }),
      );
      await expectUnavailable(await call(`/api/v1/tasks/${task.id}`, { token: user.key, method: "DELETE" }));
      expect(p.injected).toBeGreaterThanOrEqual(3);
      // Reads keep working.
      expect((await call("/api/v1/tasks", { token: user.key })).status).toBe(200);
    });
    expect(await snapshot(user.accountId)).toEqual(before);
  });

  it("answers 503 on /mcp when the account's object is out of reach, and D1 being down does not matter", async () => {
    const user = await maxUser("mcp-down");
    const rpc = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    await expectUnavailable(
      await withObjectsDown("Network connection lost.")("/mcp", { token: user.key, headers: MCP_HEADERS, body: rpc }),
    );
    const d1Down = faultyD1(env.DB, plan({ failWhen: everything }));
    expect((await callWith({ DB: d1Down }, "/mcp", { token: user.key, headers: MCP_HEADERS, body: rpc })).status).toBe(
      200,
    );
  });

  it("a tool call on /mcp with failing writes answers a retryable isError result without internals, and writes nothing", async () => {
    const user = await maxUser("mcp-writes-down");
    const before = await snapshot(user.accountId);
    const res = await withFaultyObjectSql(user.accountId, sqlPlan({ failWhen: dataWrites }), () =>
      call("/mcp", {
        token: user.key,
        headers: MCP_HEADERS,
        body: {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "create_task", arguments: { title: "lost?" } },
        },
      }),
    );
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    expect(text).not.toMatch(/\bat \S+:\d+|D1_ERROR|Durable Object|INSERT|Failed query/);
    const { result } = JSON.parse(text);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^unavailable: .*\nRetry after: \d+ s/s);
    expect(await snapshot(user.accountId)).toEqual(before);
  });

  it("keeps serving calendar packs while D1 and the account objects are down", async () => {
    const faulty = withObjectsDown("Network connection lost.", faultyD1(env.DB, plan({ failWhen: everything })));
    const list = await faulty("/api/v1/calendars");
    expect(list.status).toBe(200);
    const first = (await json(list)).data[0].id as string;
    expect((await faulty(`/api/v1/calendars/${first}`)).status).toBe(200);
    expect((await faulty(`/api/v1/calendars/${first}.ics`)).status).toBe(200);
    expect((await faulty("/api/v1/")).status).toBe(200);
    expect((await faulty("/api/v1/openapi.json")).status).toBe(200);
  });

  it("sign-up is atomic: a batch failing at any statement leaves no account, membership or session", async () => {
    for (const at of [0, 1, 2]) {
      const email = uniqueEmail(`atomic-${at}`);
      const p = plan({ batchFailAt: at });
      await expectUnavailable(
        await withFaults(p)("/auth/signup", { body: { email, password: "correct horse battery" } }),
      );
      expect(p.injected).toBe(1);
      const row = await env.DB.prepare("SELECT count(*) AS n FROM accounts WHERE email = ?")
        .bind(email)
        .first<{ n: number }>();
      expect(row?.n).toBe(0);
      // And the same email signs up normally afterwards: nothing half-written blocks it.
      expect((await call("/auth/signup", { body: { email, password: "correct horse battery" } })).status).toBe(201);
    }
    const orphans = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM memberships WHERE account_id NOT IN (SELECT id FROM accounts)) + (SELECT count(*) FROM sessions WHERE account_id NOT IN (SELECT id FROM accounts)) AS n",
    ).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
  });

  /** How many writes a request makes in the object: the positions a fault can strike. */
  async function writesOf(accountId: string, request: () => Promise<Response>): Promise<number> {
    const counted = sqlPlan({});
    const res = await withFaultyObjectSql(accountId, counted, request);
    expect(res.status).toBeLessThan(300);
    return counted.writes;
  }

  it("idempotent creation is atomic: a fault at any write leaves neither task nor record, and the retry creates exactly one", async () => {
    const user = await maxUser("idem-fault");
    const create = (key: string, title: string) =>
      call("/api/v1/tasks", { token: user.key, body: { title }, headers: { "Idempotency-Key": key } });
    // The key's lastUsedAt is written at most once a minute: this first request writes it, so the
    // requests counted below, like the ones faulted, write the record and the task only.
    await create(`warm-${crypto.randomUUID()}`, "warm");
    const n = await writesOf(user.accountId, () => create(`count-${crypto.randomUUID()}`, "counted"));
    // The record and the task (with its search index, by trigger): each must roll back with the other.
    expect(n).toBeGreaterThanOrEqual(2);
    for (let at = 0; at < n; at++) {
      const key = `retry-${at}-${crypto.randomUUID()}`;
      const p = sqlPlan({ failAtWrite: at });
      await expectUnavailable(await withFaultyObjectSql(user.accountId, p, () => create(key, `once ${at}`)));
      expect(p.injected).toBe(1);
      expect(await accountSql(user.accountId, "SELECT key FROM idempotency_keys WHERE key = ?", key)).toEqual([]);
      expect(await accountSql(user.accountId, "SELECT id FROM tasks WHERE title = ?", `once ${at}`)).toEqual([]);
      const first = await create(key, `once ${at}`);
      const again = await create(key, `once ${at}`);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect((await json(again)).id).toBe((await json(first)).id);
    }
    expect(await snapshot(user.accountId)).toHaveLength(n + 2);
  });

  it("completing a repeating task is atomic: a fault at any write leaves it open and spawns no next occurrence", async () => {
    const user = await maxUser("recur-fault");
    const repeating = { title: "water plants", due: "2026-12-01", repeat: "FREQ=WEEKLY" };
    const complete = (id: string) =>
      call(`/api/v1/tasks/${id}`, { token: user.key, method: "PATCH", body: { completed: true } });
    const twin = await createTask(user.key, repeating);
    const n = await writesOf(user.accountId, () => complete(twin.id));
    expect(n).toBeGreaterThanOrEqual(2);
    const task = await createTask(user.key, repeating);
    const before = await snapshot(user.accountId);
    for (let at = 0; at < n; at++) {
      const p = sqlPlan({ failAtWrite: at });
      await expectUnavailable(await withFaultyObjectSql(user.accountId, p, () => complete(task.id)));
      expect(p.injected).toBe(1);
      expect(await snapshot(user.accountId)).toEqual(before);
    }
    expect((await complete(task.id)).status).toBe(200);
    expect(await snapshot(user.accountId)).toHaveLength(before.length + 1);
  });
});
