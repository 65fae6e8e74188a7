import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { TaskInput, TaskPatch } from "../../src/domain/tasks/schemas";
import { tools } from "../../src/mcp/tools";
import { accountSql, BASE, call, createTask, maxUser } from "../helpers";
import { MCP_HEADERS, rpcResult } from "../mcp/client";
import {
  bodyTextOf,
  costlyRepeat,
  headerCase,
  jsonSchemaOf,
  mutatedOf,
  pathId,
  taskQuery,
  unicodeEdge,
  validOf,
} from "./arbitraries";
import { PROBLEM_CODES } from "./support";

/**
 * Property-based fuzzing of every write endpoint, the task list's query string, the request
 * headers and every MCP tool. The property, for each generated request:
 *   - no response is 5xx;
 *   - every 4xx is problem+json with a known code;
 *   - a refused request changes no data (the account's tasks, their updatedAt, keys, sessions, time zone).
 * FUZZ_RUNS (20 in `npm test`, 200 in `npm run test:slow`: vitest.config.ts) sets the runs per endpoint and per tool.
 */
const RUNS = Number((env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? "200") || 200;
const SEED = Number((env as unknown as { FUZZ_SEED?: string }).FUZZ_SEED ?? Date.now() % 2 ** 31);

const totals = { tried: 0, fiveXx: 0, fourXx: 0, twoXx: 0, perTarget: new Map<string, number>(), slowestCompletion: 0 };

type User = Awaited<ReturnType<typeof maxUser>>;
let user: User;
let ownTaskId: string;

/**
 * Everything a write by this account could change: in D1 (keys as the account page lists them,
 * sessions, the account) and in the account's object (tasks, lists, idempotency records, and the
 * keys, time zone and plan its requests are judged by; a key's lastUsedAt is left out, use moves it).
 */
async function snapshot(accountId: string) {
  const d1 = await env.DB.prepare(
    `SELECT (SELECT group_concat(v, ',') FROM (SELECT id || ':' || coalesce(revoked_at, '') AS v FROM api_keys WHERE account_id = ?1 ORDER BY id)) AS keys,
            (SELECT count(*) FROM sessions WHERE account_id = ?1 AND revoked_at IS NULL) AS sessions,
            (SELECT time_zone || ':' || password_hash FROM accounts WHERE id = ?1) AS account`,
  )
    .bind(accountId)
    .first();
  const [object] = await accountSql(
    accountId,
    `SELECT (SELECT count(*) FROM tasks) AS tasks,
            (SELECT group_concat(v, ',') FROM (SELECT id || ':' || updated_at || ':' || coalesce(deleted_at, '') AS v FROM tasks ORDER BY id)) AS versions,
            (SELECT group_concat(v, ',') FROM (SELECT id || ':' || updated_at || ':' || coalesce(deleted_at, '') AS v FROM lists ORDER BY id)) AS lists,
            (SELECT group_concat(v, ',') FROM (SELECT id || ':' || coalesce(revoked_at, '') || ':' || coalesce(expires_at, '') AS v FROM api_keys ORDER BY id)) AS keys,
            (SELECT time_zone || ':' || plan || ':' || coalesce(plan_expires_at, '') FROM account) AS account,
            (SELECT count(*) FROM idempotency_keys) AS idempotency`,
  );
  return { d1, object };
}

interface Sent {
  target: string;
  path: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Sends one generated request and checks the property; returns the response text. */
async function check(sent: Sent, accountId = user.accountId): Promise<{ status: number; text: string }> {
  const before = await snapshot(accountId);
  const headers = new Headers(sent.headers);
  const response = await call(sent.path, {
    method: sent.method,
    headers: Object.fromEntries(headers),
    body: sent.body,
  });
  const text = await response.text();
  totals.tried++;
  totals.perTarget.set(sent.target, (totals.perTarget.get(sent.target) ?? 0) + 1);
  const where = `${sent.method} ${sent.path} ${JSON.stringify(sent.headers ?? {})} ${(sent.body ?? "").slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 500) totals.fiveXx++;
  expect(response.status, where).toBeLessThan(500);
  if (response.status >= 400) {
    totals.fourXx++;
    expect(response.headers.get("content-type"), where).toBe("application/problem+json");
    const problem = JSON.parse(text);
    expect(PROBLEM_CODES.has(problem.code), where).toBe(true);
    expect(problem.status, where).toBe(response.status);
    expect(
      typeof problem.title === "string" && typeof problem.detail === "string" && typeof problem.type === "string",
      where,
    ).toBe(true);
    expect(await snapshot(accountId), where).toEqual(before);
  } else {
    totals.twoXx++;
  }
  return { status: response.status, text };
}

const jsonHeaders = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
const params = () => ({ numRuns: RUNS, seed: SEED, endOnFailure: true });

beforeAll(async () => {
  user = await maxUser("fuzz");
  ownTaskId = (await createTask(user.key, { title: "fuzz target", repeat: "FREQ=DAILY" })).id;
});

afterAll(() => {
  const per = [...totals.perTarget].map(([k, v]) => `${k}=${v}`).join(", ");
  console.log(
    `[hardening] fuzz: ${totals.tried} inputs tried (FUZZ_RUNS=${RUNS}, seed ${SEED}), 5xx seen: ${totals.fiveXx}, 4xx: ${totals.fourXx}, 2xx: ${totals.twoXx}. Per target: ${per}. Slowest completion of a costly repeat rule: ${totals.slowestCompletion.toFixed(1)} ms`,
  );
});

describe(`fuzzing REST (${RUNS} runs per target)`, { timeout: 30_000 + RUNS * 400 }, () => {
  const input = jsonSchemaOf(TaskInput);
  const patch = jsonSchemaOf(TaskPatch);

  it("POST /api/v1/tasks: bodies", async () => {
    await fc.assert(
      fc.asyncProperty(bodyTextOf(input), async (body) => {
        await check({
          target: "POST /tasks",
          method: "POST",
          path: "/api/v1/tasks",
          headers: jsonHeaders(user.key),
          body,
        });
      }),
      params(),
    );
  });

  it("PATCH /api/v1/tasks/{id}: bodies on an existing task, and ids", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(ownTaskId), pathId), bodyTextOf(patch), async (id, body) => {
        await check({
          target: "PATCH /tasks/{id}",
          method: "PATCH",
          path: `/api/v1/tasks/${id}`,
          headers: jsonHeaders(user.key),
          body,
        });
      }),
      params(),
    );
  });

  it("DELETE /api/v1/tasks/{id}: ids", async () => {
    await fc.assert(
      fc.asyncProperty(pathId, async (id) => {
        await check({
          target: "DELETE /tasks/{id}",
          method: "DELETE",
          path: `/api/v1/tasks/${id}`,
          headers: { Authorization: `Bearer ${user.key}` },
        });
      }),
      params(),
    );
  });

  it("GET /api/v1/tasks: query strings", async () => {
    await fc.assert(
      fc.asyncProperty(taskQuery, async (query) => {
        await check({
          target: "GET /tasks?query",
          method: "GET",
          path: `/api/v1/tasks?${query}`,
          headers: { Authorization: `Bearer ${user.key}` },
        });
      }),
      params(),
    );
  });

  it("POST then complete: the costliest repeat rules from generated dues", async () => {
    const due = fc.oneof(
      fc
        .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom("1900-01-01", "1900-01-02", "2024-02-29", "9999-12-31"),
    );
    await fc.assert(
      fc.asyncProperty(costlyRepeat, due, async (repeat, due) => {
        const created = await check({
          target: "complete costly rule",
          method: "POST",
          path: "/api/v1/tasks",
          headers: jsonHeaders(user.key),
          body: JSON.stringify({ title: "costly", due, repeat }),
        });
        if (created.status !== 201) return;
        const started = performance.now();
        await check({
          target: "complete costly rule",
          method: "PATCH",
          path: `/api/v1/tasks/${JSON.parse(created.text).id}`,
          headers: jsonHeaders(user.key),
          body: '{"completed":true}',
        });
        totals.slowestCompletion = Math.max(totals.slowestCompletion, performance.now() - started);
      }),
      params(),
    );
  });

  it("headers: Authorization, Content-Type, Idempotency-Key, If-Match on POST and PATCH", async () => {
    await fc.assert(
      fc.asyncProperty(headerCase(user.key), fc.boolean(), validOf(input), async (h, post, body) => {
        const headers: Record<string, string> = {};
        if (h.authorization !== undefined) headers.Authorization = h.authorization;
        if (h.contentType !== undefined) headers["Content-Type"] = h.contentType;
        if (h.idempotencyKey !== undefined) headers["Idempotency-Key"] = h.idempotencyKey;
        if (h.ifMatch !== undefined) headers["If-Match"] = h.ifMatch;
        await check({
          target: "headers",
          method: post ? "POST" : "PATCH",
          path: post ? "/api/v1/tasks" : `/api/v1/tasks/${ownTaskId}`,
          headers,
          body: JSON.stringify(post ? body : { title: "headers" }),
        });
      }),
      params(),
    );
  });
});

describe(`fuzzing account writes (${RUNS} runs per endpoint)`, { timeout: 30_000 + RUNS * 400 }, () => {
  const credentials = z.strictObject({ email: z.email().max(254), password: z.string().min(10).max(1024) });
  const creds = jsonSchemaOf(credentials);
  const account = jsonSchemaOf(z.strictObject({ timeZone: z.string().max(64).optional() }));
  const newKey = jsonSchemaOf(
    z.strictObject({
      name: z.string().min(1).max(100),
      expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
    }),
  );
  const passwordChange = jsonSchemaOf(
    z.strictObject({ currentPassword: z.string().min(1).max(1024), newPassword: z.string().min(10).max(1024) }),
  );
  const erasure = jsonSchemaOf(z.strictObject({ password: z.string().min(1).max(1024) }));
  let session: string;
  let accountId: string;

  beforeAll(async () => {
    const other = await maxUser("fuzz-account");
    session = other.session;
    accountId = other.accountId;
  });

  const sessionHeaders = () => ({ Authorization: `Bearer ${session}`, "Content-Type": "application/json" });

  for (const path of ["/auth/signup", "/auth/login"]) {
    it(`POST ${path}: bodies (mutated, so almost none is valid)`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            mutatedOf(creds).map((v) => JSON.stringify(v) ?? "null"),
            bodyTextOf(creds),
          ),
          async (body) => {
            const { status } = await check(
              { target: path, method: "POST", path, headers: { "Content-Type": "application/json" }, body },
              accountId,
            );
            // An accepted sign-up must have been a valid one.
            if (status === 201) expect(credentials.safeParse(JSON.parse(body)).success).toBe(true);
          },
        ),
        params(),
      );
    });
  }

  it("PATCH /account: bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          bodyTextOf(account),
          unicodeEdge.map((tz) => JSON.stringify({ timeZone: tz })),
        ),
        async (body) => {
          await check(
            { target: "PATCH /account", method: "PATCH", path: "/account", headers: sessionHeaders(), body },
            accountId,
          );
        },
      ),
      params(),
    );
  });

  it("POST /account/api-keys: bodies", async () => {
    await fc.assert(
      fc.asyncProperty(bodyTextOf(newKey), async (body) => {
        await check(
          {
            target: "POST /account/api-keys",
            method: "POST",
            path: "/account/api-keys",
            headers: sessionHeaders(),
            body,
          },
          accountId,
        );
      }),
      params(),
    );
  });

  // Generated passwords are never the account's, so every request here must be refused and change nothing.
  for (const [method, path, schema] of [
    ["POST", "/account/password", passwordChange],
    ["DELETE", "/account", erasure],
  ] as const) {
    it(`${method} ${path}: bodies`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            bodyTextOf(schema),
            validOf(schema).map((v) => JSON.stringify(v)),
          ),
          async (body) => {
            const { status } = await check(
              { target: `${method} ${path}`, method, path, headers: sessionHeaders(), body },
              accountId,
            );
            expect(status).toBeGreaterThanOrEqual(400);
          },
        ),
        params(),
      );
    });
  }

  it("DELETE /account/sessions/{id}: ids", async () => {
    await fc.assert(
      fc.asyncProperty(pathId, async (id) => {
        await check(
          {
            target: "DELETE /account/sessions/{id}",
            method: "DELETE",
            path: `/account/sessions/${id}`,
            headers: sessionHeaders(),
          },
          accountId,
        );
      }),
      params(),
    );
  });

  it("DELETE /account/api-keys/{id}: ids", async () => {
    await fc.assert(
      fc.asyncProperty(pathId, async (id) => {
        await check(
          {
            target: "DELETE /account/api-keys/{id}",
            method: "DELETE",
            path: `/account/api-keys/${id}`,
            headers: sessionHeaders(),
          },
          accountId,
        );
      }),
      params(),
    );
  });
});

describe(`fuzzing MCP tools (${RUNS} runs per tool)`, { timeout: 30_000 + RUNS * 400 }, () => {
  for (const tool of tools) {
    it(`tools/call ${tool.name}: arguments`, async () => {
      const schema = jsonSchemaOf(tool.input);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: mutatedOf(schema) }, { weight: 1, arbitrary: validOf(schema) }),
          fc.integer({ min: 1, max: 1e9 }),
          async (args, id) => {
            const before = await snapshot(user.accountId);
            const body = JSON.stringify({
              jsonrpc: "2.0",
              id,
              method: "tools/call",
              params: { name: tool.name, arguments: args },
            });
            const response = await call("/mcp", { method: "POST", token: user.key, headers: MCP_HEADERS, body });
            totals.tried++;
            totals.perTarget.set(`mcp ${tool.name}`, (totals.perTarget.get(`mcp ${tool.name}`) ?? 0) + 1);
            const where = `${tool.name} ${body.slice(0, 300)} → ${response.status}`;
            if (response.status >= 500) totals.fiveXx++;
            expect(response.status, where).toBeLessThan(500);
            if (response.status >= 400) {
              totals.fourXx++;
              expect(response.headers.get("content-type"), where).toBe("application/problem+json");
              expect(PROBLEM_CODES.has(JSON.parse(await response.text()).code), where).toBe(true);
              expect(await snapshot(user.accountId), where).toEqual(before);
              return;
            }
            totals.twoXx++;
            const message = await rpcResult(response);
            const text = JSON.stringify(message);
            // No stack trace, no SQL, and never an internal error for bad arguments.
            expect(text, where).not.toMatch(/\bat \S+\.(ts|js):\d+|Failed query|SQLITE|D1_ERROR/);
            expect(message.error?.code, `${where} ${text.slice(0, 300)}`).not.toBe(-32603);
            if (message.error || message.result?.isError)
              expect(await snapshot(user.accountId), `${where} ${text.slice(0, 300)}`).toEqual(before);
          },
        ),
        params(),
      );
    });
  }
});

it("sanity: the fuzzed Worker still serves its normal requests", async () => {
  const res = await call("/api/v1/tasks", { token: user.key });
  expect(res.status).toBe(200);
  expect(new URL(BASE).host).toBe("example.com");
});
