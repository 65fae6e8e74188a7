import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { call, createTask, json, maxUser, uniqueEmail } from "../helpers";
import { type FaultPlan, withFaults } from "./support";

/** The messages D1 and workerd produce when the database cannot answer. */
const OUTAGES = [
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
  expect(text).not.toMatch(/\bat \S+:\d+|D1_ERROR|SELECT|INSERT|Failed query|__injected/);
}

const writes = (sql: string) => /^\s*(insert|update|delete)\b/i.test(sql);
const everything = () => true;
const plan = (p: Partial<FaultPlan>): FaultPlan => ({ injected: 0, ...p });

/** The account's tasks as D1 has them, tombstones included: any write shows up here. */
const snapshot = async (accountId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, updated_at, completed, deleted_at, repeat FROM tasks WHERE account_id = ? ORDER BY id",
    )
      .bind(accountId)
      .all()
  ).results;

describe("D1 faults", () => {
  let logged: MockInstance<typeof console.error>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    // The log names the failure, never the SQL parameters drizzle wraps it with.
    for (const args of logged.mock.calls) expect(args.join(" ")).not.toMatch(/Failed query|params:/);
    logged.mockRestore();
  });

  for (const message of OUTAGES) {
    it(`answers 503 unavailable with Retry-After on every route when D1 says "${message}"`, async () => {
      const user = await maxUser("outage");
      const task = await createTask(user.key);
      const before = await snapshot(user.accountId);
      const faulty = withFaults(plan({ failWhen: everything, message }));
      const id = task.id as string;
      for (const [path, options] of [
        ["/api/v1/tasks", { token: user.key }],
        ["/api/v1/tasks", { token: user.key, body: { title: "x" } }],
        [`/api/v1/tasks/${id}`, { token: user.key, method: "PATCH", body: { completed: true } }],
        [`/api/v1/tasks/${id}`, { token: user.key, method: "DELETE" }],
        ["/auth/signup", { body: { email: uniqueEmail("down"), password: "correct horse battery" } }],
        ["/auth/login", { body: { email: user.email, password: user.password } }],
        ["/account", { token: user.session }],
        ["/account/api-keys", { token: user.session, body: { name: "k" } }],
      ] as const) {
        await expectUnavailable(await faulty(path, options));
      }
      expect(await snapshot(user.accountId)).toEqual(before);
    });
  }

  // Limits and mistakes that a retry cannot fix: the same request fails the same way every time.
  for (const message of [
    "D1_ERROR: string or blob too big: SQLITE_TOOBIG",
    "D1_ERROR: too many SQL variables at offset 412: SQLITE_ERROR",
    "D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'",
  ]) {
    it(`answers 500 internal without Retry-After, never a transient 503, when D1 says "${message}"`, async () => {
      const user = await maxUser("permanent");
      const faulty = withFaults(plan({ failWhen: (sql) => /\bfrom "?tasks"?/i.test(sql) && !writes(sql), message }));
      for (const path of [
        "/api/v1/tasks",
        "/api/v1/tasks?limit=10",
        `/api/v1/tasks?since=${encodeURIComponent(new Date().toISOString())}`,
      ]) {
        const res = await faulty(path, { token: user.key });
        const text = await res.text();
        expect(res.status, text).toBe(500);
        expect(res.headers.get("retry-after")).toBeNull();
        expect(JSON.parse(text).code).toBe("internal");
        expect(text).not.toMatch(/TOOBIG|SQLITE|D1_|SELECT/);
      }
    });
  }

  it("answers 503 when only writes fail, after authentication succeeded, and writes nothing", async () => {
    const user = await maxUser("writes-down");
    const task = await createTask(user.key, { title: "keep me" });
    const before = await snapshot(user.accountId);
    const p = plan({ failWhen: writes });
    const faulty = withFaults(p);
    await expectUnavailable(await faulty("/api/v1/tasks", { token: user.key, body: { title: "new" } }));
    await expectUnavailable(
      await faulty(`/api/v1/tasks/${task.id}`, { token: user.key, method: "PATCH", body: { title: "changed" } }),
    );
    await expectUnavailable(await faulty(`/api/v1/tasks/${task.id}`, { token: user.key, method: "DELETE" }));
    expect(p.injected).toBeGreaterThanOrEqual(3);
    // Reads keep working.
    expect((await faulty("/api/v1/tasks", { token: user.key })).status).toBe(200);
    expect(await snapshot(user.accountId)).toEqual(before);
  });

  it("answers 503 on /mcp when D1 is down", async () => {
    const user = await maxUser("mcp-down");
    const faulty = withFaults(plan({ failWhen: everything }));
    const res = await faulty("/mcp", {
      token: user.key,
      headers: { Accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    });
    await expectUnavailable(res);
  });

  it("a tool call on /mcp with failing writes answers a retryable isError result without internals, and writes nothing", async () => {
    const user = await maxUser("mcp-writes-down");
    const before = await snapshot(user.accountId);
    const res = await withFaults(plan({ failWhen: writes }))("/mcp", {
      token: user.key,
      headers: { Accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "create_task", arguments: { title: "lost?" } },
      },
    });
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    expect(text).not.toMatch(/\bat \S+:\d+|D1_ERROR|INSERT|Failed query/);
    const { result } = JSON.parse(text);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^unavailable: .*\nRetry after: \d+ s/s);
    expect(await snapshot(user.accountId)).toEqual(before);
  });

  it("keeps serving calendar packs while D1 is down", async () => {
    const faulty = withFaults(plan({ failWhen: everything }));
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

  it("idempotent creation is atomic: a failed batch leaves neither task nor record, and the retry creates exactly one", async () => {
    const user = await maxUser("idem-fault");
    for (const at of [0, 1, 2, 3, 4]) {
      const key = `retry-${at}-${crypto.randomUUID()}`;
      const body = { title: `once ${at}` };
      const headers = { "Idempotency-Key": key };
      const p = plan({ batchFailAt: at });
      await expectUnavailable(await withFaults(p)("/api/v1/tasks", { token: user.key, body, headers }));
      expect(p.injected).toBe(1);
      const records = await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE key = ?")
        .bind(key)
        .first<{ n: number }>();
      expect(records?.n).toBe(0);
      const first = await call("/api/v1/tasks", { token: user.key, body, headers });
      const again = await call("/api/v1/tasks", { token: user.key, body, headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect((await json(again)).id).toBe((await json(first)).id);
    }
    const titles = (await snapshot(user.accountId)).length;
    expect(titles).toBe(5);
  });

  it("completing a repeating task is atomic: a failed batch leaves it open and spawns no next occurrence", async () => {
    const user = await maxUser("recur-fault");
    const task = await createTask(user.key, { title: "water plants", due: "2026-12-01", repeat: "FREQ=WEEKLY" });
    const before = await snapshot(user.accountId);
    for (const at of [0, 1]) {
      const p = plan({ batchFailAt: at });
      await expectUnavailable(
        await withFaults(p)(`/api/v1/tasks/${task.id}`, {
          token: user.key,
          method: "PATCH",
          body: { completed: true },
        }),
      );
      expect(p.injected).toBe(1);
      expect(await snapshot(user.accountId)).toEqual(before);
    }
    const done = await call(`/api/v1/tasks/${task.id}`, {
      token: user.key,
      method: "PATCH",
      body: { completed: true },
    });
    expect(done.status).toBe(200);
    const after = await snapshot(user.accountId);
    expect(after).toHaveLength(2);
  });
});
