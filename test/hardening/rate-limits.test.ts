import { describe, expect, it } from "vitest";
import { forgedKey } from "../support/forged";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { call, json, maxUser, signUp, uniqueEmail } from "../helpers";
import { atWindowStart, limited, limitedByRuntime, uniqueIp } from "./support";

/** Sends `n` requests one after another and tallies the statuses. */
async function burst(n: number, send: (i: number) => Promise<Response>) {
  const statuses: number[] = [];
  const retryAfter: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const res = await send(i);
    statuses.push(res.status);
    if (res.status === 429) {
      retryAfter.push(res.headers.get("retry-after"));
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect((await json(res)).code).toBe("rate_limited");
    } else {
      await res.body?.cancel();
    }
  }
  return { statuses, retryAfter };
}

const count = (statuses: number[], predicate: (s: number) => boolean) => statuses.filter(predicate).length;
const is2xx = (s: number) => s >= 200 && s < 300;
const RETRY_AFTER = /^[1-9]\d*$/;

describe("rate limits (wrangler.toml's [[ratelimits]], RATE_LIMITS on)", { timeout: 60_000 }, () => {
  it("per API key: three times the quota in one window gives exactly the quota in 2xx, the rest 429 with Retry-After", async () => {
    const { quota, window } = RATE_POLICIES.perKey;
    const user = await maxUser("burst");
    // The one burst against the runtime's own binding: it agrees with the tests' window (rate-window.ts).
    await atWindowStart(20, window);
    const { statuses, retryAfter } = await burst(3 * quota, () =>
      limitedByRuntime("/api/v1/tasks", { token: user.key, ip: uniqueIp() }),
    );
    expect(count(statuses, is2xx)).toBe(quota);
    expect(count(statuses, (s) => s === 429)).toBe(2 * quota);
    expect(retryAfter.every((v) => v !== null && RETRY_AFTER.test(v) && Number(v) <= window)).toBe(true);
    console.log(
      `[hardening] per-key limit: ${3 * quota} requests, ${count(statuses, is2xx)} 2xx, ${count(statuses, (s) => s === 429)} 429`,
    );
  });

  it("counts writes too, and the limit is per key: a second key of the same account is unaffected", async () => {
    const user = await maxUser("writes");
    const other = await maxUser("other");
    const { statuses } = await burst(RATE_POLICIES.perKey.quota + 5, (i) =>
      limited("/api/v1/tasks", { token: user.key, body: { title: `t${i}` } }),
    );
    expect(count(statuses, (s) => s === 201)).toBe(RATE_POLICIES.perKey.quota);
    expect(count(statuses, (s) => s === 429)).toBe(5);
    expect((await limited("/api/v1/tasks", { token: other.key })).status).toBe(200);
    // Nothing was written by the refused requests.
    const list = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(list.data).toHaveLength(RATE_POLICIES.perKey.quota);
  });

  it("successful responses carry RateLimit-Policy and RateLimit; remaining counts down", async () => {
    const user = await maxUser("headers");
    await atWindowStart(5);
    const first = await limited("/api/v1/tasks", { token: user.key });
    const second = await limited("/api/v1/tasks", { token: user.key });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=120;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"per-key";r=119;t=\d+$/);
    expect(second.headers.get("ratelimit")).toMatch(/^"per-key";r=118;t=\d+$/);
  });

  it("per IP on failed key attempts: 3× the quota gives exactly the quota in 401, the rest 429", async () => {
    const { quota } = RATE_POLICIES.perIp;
    const ip = uniqueIp();
    const { statuses, retryAfter } = await burst(3 * quota, () => limited("/api/v1/tasks", { token: forgedKey(), ip }));
    expect(count(statuses, (s) => s === 401)).toBe(quota);
    expect(count(statuses, (s) => s === 429)).toBe(2 * quota);
    expect(retryAfter.every((v) => v !== null && RETRY_AFTER.test(v))).toBe(true);
    // A valid key from the same IP still works: the IP limit counts failures only.
    const user = await maxUser("same-ip");
    expect((await limited("/api/v1/tasks", { token: user.key, ip })).status).toBe(200);
  });

  it("per IP on /auth/signup: 3× the quota gives exactly the quota in 201, the rest 429", async () => {
    const { quota } = RATE_POLICIES.perIp;
    const ip = uniqueIp();
    const { statuses, retryAfter } = await burst(3 * quota, () =>
      limited("/auth/signup", { ip, body: { email: uniqueEmail("ip"), password: "correct horse battery" } }),
    );
    expect(count(statuses, (s) => s === 201)).toBe(quota);
    expect(count(statuses, (s) => s === 429)).toBe(2 * quota);
    expect(retryAfter.every((v) => v !== null && RETRY_AFTER.test(v))).toBe(true);
  });

  it("per IP on /auth/login: 3× the quota gives exactly the quota in 200, the rest 429", async () => {
    const { quota } = RATE_POLICIES.perIp;
    // Ten accounts, three logins each: under the per-email limit, over the per-IP one.
    const accounts = await Promise.all(Array.from({ length: quota }, () => signUp("login-ip")));
    const ip = uniqueIp();
    const { statuses } = await burst(3 * quota, (i) => {
      const account = accounts[i % quota]!;
      return limited("/auth/login", { ip, body: { email: account.email, password: account.password } });
    });
    expect(count(statuses, (s) => s === 200)).toBe(quota);
    expect(count(statuses, (s) => s === 429)).toBe(2 * quota);
  });

  it("sign-in backoff per email: the same 429 for an existing and an unknown email, checked before the password", async () => {
    const { quota } = RATE_POLICIES.perEmail;
    const account = await signUp("backoff");
    const unknown = uniqueEmail("nobody");
    const attempts = async (email: string, password: string) => {
      const out: number[] = [];
      // A fresh IP per attempt: only the per-email limit applies.
      for (let i = 0; i < 3 * quota; i++) {
        const res = await limited("/auth/login", { ip: uniqueIp(), body: { email, password } });
        out.push(res.status);
        await res.body?.cancel();
      }
      return out;
    };
    const existing = await attempts(account.email, "wrong password!");
    const missing = await attempts(unknown, "wrong password!");
    expect(existing).toEqual([...Array(quota).fill(401), ...Array(2 * quota).fill(429)]);
    expect(missing).toEqual(existing);
    // While backed off, even the right password waits: guessing gains nothing.
    const right = await limited("/auth/login", {
      ip: uniqueIp(),
      body: { email: account.email.toUpperCase(), password: account.password },
    });
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(RETRY_AFTER);
  });

  it("/mcp shares the per-key budget with REST, carries the headers, and counts failed keys per IP", async () => {
    const { quota } = RATE_POLICIES.perKey;
    const user = await maxUser("mcp-limit");
    const mcp = (token: string, ip?: string) =>
      limited("/mcp", {
        token,
        ip,
        headers: { Accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      });
    const first = await mcp(user.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=120;w=60');
    const { statuses } = await burst(quota, () => limited("/api/v1/tasks", { token: user.key }));
    expect(count(statuses, is2xx)).toBe(quota - 1);
    const limitedMcp = await mcp(user.key);
    expect(limitedMcp.status).toBe(429);
    expect(limitedMcp.headers.get("retry-after")).toMatch(RETRY_AFTER);
    expect((await json(limitedMcp)).code).toBe("rate_limited");

    const ip = uniqueIp();
    const failures = await burst(3 * RATE_POLICIES.perIp.quota, () => mcp(forgedKey(), ip));
    expect(count(failures.statuses, (s) => s === 401)).toBe(RATE_POLICIES.perIp.quota);
    expect(count(failures.statuses, (s) => s === 429)).toBe(2 * RATE_POLICIES.perIp.quota);
  });

  it("MCP JSON-RPC batches count every message: 300 batched create_task calls in a window create at most the quota", async () => {
    const { quota } = RATE_POLICIES.perKey;
    const user = await maxUser("mcp-batch");
    const create = (i: number) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "create_task", arguments: { title: `batched ${i}` } },
    });
    // No MCP-Protocol-Version header: a 2025-03-26 client, the one revision with batches.
    const batch = (from: number, size: number) =>
      limited("/mcp", {
        token: user.key,
        headers: { Accept: "application/json, text/event-stream" },
        body: Array.from({ length: size }, (_, i) => create(from + i)),
      });
    const { statuses } = await burst(30, (i) => batch(i * 10, 10));
    expect(count(statuses, (s) => s === 200)).toBe(quota / 10);
    expect(count(statuses, (s) => s === 429)).toBe(30 - quota / 10);
    const tasks = (await json(await call("/api/v1/tasks", { token: user.key }))).data;
    expect(tasks.length).toBeLessThanOrEqual(quota);
    console.log(
      `[hardening] MCP batches: 300 batched create_task calls in one window created ${tasks.length} tasks (quota ${quota})`,
    );
  });

  it("RATE_LIMITS=off turns every limiter off (benchmarks, local load tests)", async () => {
    const user = await maxUser("off");
    const statuses = new Set<number>();
    for (let i = 0; i < RATE_POLICIES.perKey.quota + 10; i++) {
      const res = await call("/api/v1/tasks", { token: user.key });
      statuses.add(res.status);
      expect(res.headers.get("ratelimit")).toBeNull();
      await res.body?.cancel();
    }
    expect([...statuses]).toEqual([200]);
  });
});
