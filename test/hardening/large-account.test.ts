import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, json, maxUser } from "../helpers";
import { rpc, rpcResult } from "../mcp/client";
import { probedAccounts, probedD1 } from "../support/d1-probes";
import { callWith } from "./support";

/**
 * The largest tasks the limits allow, as JSON: a title of 500 and notes of 20,000 code points, each
 * U+0001. A control character is one byte in UTF-8 but six in JSON (`\u0001`), more than any other
 * code point (an emoji is four), so each task lists as about 123 KB, and the request that creates it
 * (about 123 KB of JSON) still fits the 128 KiB body limit. When listings were built as one JSON
 * text in SQL, SQLite's 2 MB value limit (SQLITE_TOOBIG) made such an account fail from about 17 tasks
 * on; now the account's object returns rows and the Worker writes the JSON.
 *
 * Measured locally (workerd under vitest, 2 shared cores), with the account objects: the whole
 * listing, 24.6 MB of JSON, in about 730 ms (1.2 s with the test's parse); ?since=…&listId=… 0.8 s;
 * the three page walks 2.1 s; MCP list_tasks with limit 200 4.8 s.
 */
const TASKS = 200;
const title = "\u0001".repeat(500);
const notes = "\u0001".repeat(20_000);

let user: Awaited<ReturnType<typeof maxUser>>;
let startedAt: string;

/** The tasks as they should list: every field, byte for byte. */
const expectComplete = (tasks: { title: string; notes: string }[], n: number) => {
  expect(tasks).toHaveLength(n);
  for (const task of tasks) {
    expect(task.title).toBe(title);
    expect(task.notes).toBe(notes);
  }
};

beforeAll(async () => {
  user = await maxUser("large");
  startedAt = new Date(Date.now() - 1000).toISOString();
  for (let i = 0; i < TASKS; i++) {
    const res = await call("/api/v1/tasks", {
      token: user.key,
      body: { title, notes, listId: "big", due: "2026-12-24T09:00:00+01:00", repeat: "FREQ=DAILY" },
    });
    expect(res.status).toBe(201);
    await res.body?.cancel();
  }
}, 120_000);

describe("the largest account the limits allow lists in full", { timeout: 120_000 }, () => {
  it("GET /api/v1/tasks without limit: every task, in about 25 MB of JSON", async () => {
    const started = performance.now();
    const res = await call("/api/v1/tasks", { token: user.key });
    const text = await res.text();
    const ms = performance.now() - started;
    expect(res.status, text.slice(0, 300)).toBe(200);
    const body = JSON.parse(text);
    expectComplete(body.data, TASKS);
    expect(body.meta.count).toBe(TASKS);
    const bytes = new TextEncoder().encode(text).byteLength;
    expect(bytes).toBeGreaterThan(3 * 2_000_000);
    console.log(
      `[hardening] largest listing: ${TASKS} tasks, ${(bytes / 1e6).toFixed(2)} MB of JSON, ${ms.toFixed(0)} ms`,
    );
  });

  it("GET ?since=… and ?listId=…: every task, and the tombstones", async () => {
    const deleted = await call(
      `/api/v1/tasks/${(await json(await call("/api/v1/tasks?limit=1", { token: user.key }))).data[0].id}`,
      { method: "DELETE", token: user.key },
    );
    expect(deleted.status).toBe(204);
    const res = await call(`/api/v1/tasks?since=${encodeURIComponent(startedAt)}&listId=big`, { token: user.key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectComplete(body.data, TASKS - 1);
    expect(body.meta.deleted).toHaveLength(1);
  });

  it("GET ?limit=140 and ?limit=500: pages as asked, and their cursors walk the rest", async () => {
    for (const limit of [140, 500, 20]) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const res = await call(`/api/v1/tasks?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
          token: user.key,
        });
        expect(res.status, `limit=${limit}`).toBe(200);
        const body = await json(res);
        expect(body.data.length).toBeLessThanOrEqual(limit);
        for (const task of body.data) seen.add(task.id);
        cursor = body.meta.nextCursor;
      } while (cursor);
      expect(seen.size, `limit=${limit}`).toBe(TASKS - 1);
    }
  });

  it("MCP list_tasks with limit 200", async () => {
    const body = await rpcResult(
      await rpc(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_tasks", arguments: { limit: 200 } } },
        { token: user.key },
      ),
    );
    expect(body.result.isError, JSON.stringify(body).slice(0, 300)).toBeFalsy();
    expectComplete(body.result.structuredContent.tasks, TASKS - 1);
  });
});

describe("how the largest account lists", { timeout: 120_000 }, () => {
  it("the whole listing is one call to the account's object and no D1 query", async () => {
    const d1 = probedD1(env.DB);
    const objects = probedAccounts(env.ACCOUNTS);
    const res = await callWith({ DB: d1.db, ACCOUNTS: objects.namespace }, "/api/v1/tasks", { token: user.key });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect(d1.counter.trips).toBe(0);
    expect(objects.calls).toEqual(["run"]);
  });
});
