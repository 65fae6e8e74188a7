import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { tasks } from "../../src/db/schema";
import { CHUNK_BYTES, chunkQuery } from "../../src/domain/tasks/listing-chunks";
import { call, json, maxUser } from "../helpers";
import { rpc, rpcResult } from "../mcp/client";
import { callWith } from "./support";

/**
 * The largest tasks the limits allow, as JSON: a title of 500 and notes of 20,000 code points, each
 * U+0001. A control character is one byte in UTF-8 but six in JSON (`\u0001`), more than any other
 * code point (an emoji is four), so each task lists as about 123 KB, and the request that creates it
 * (about 123 KB of JSON) still fits the 128 KiB body limit. SQLite refuses a value over about 2 MB
 * (SQLITE_TOOBIG), so a listing built as one JSON text failed from about 17 such tasks on, with a
 * "temporary" 503 for good.
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

/** A D1 binding that counts batches (round trips) and their statements, and records their SQL. */
function countingD1(real: D1Database) {
  const seen = { trips: 0, statements: 0, texts: new Set<string>() };
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") {
        return (text: string) => {
          seen.texts.add(text);
          return target.prepare(text);
        };
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          seen.trips++;
          seen.statements += statements.length;
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, seen };
}

describe("how the largest account lists", { timeout: 120_000 }, () => {
  it("a normal page stays one round trip and one statement; the whole list takes a second round trip, in chunks", async () => {
    const small = countingD1(env.DB);
    expect((await callWith({ DB: small.db }, "/api/v1/tasks?limit=3", { token: user.key })).status).toBe(200);
    expect([small.seen.trips, small.seen.statements]).toEqual([1, 1]);
    const whole = countingD1(env.DB);
    const res = await callWith({ DB: whole.db }, "/api/v1/tasks", { token: user.key });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    // The one statement that failed with SQLITE_TOOBIG, then the page's row and the chunks together.
    expect([whole.seen.trips, whole.seen.statements]).toEqual([2, 3]);
    // The chunks read through the account's index, like every listing (test/domain/query-plans.test.ts).
    const chunkStatements = [...whole.seen.texts].filter((t) => t.includes("octet_length"));
    expect(chunkStatements).toHaveLength(1);
    for (const text of chunkStatements) {
      const plan = (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
          .bind(...(text.match(/\?/g) ?? []).map(() => null))
          .all<{ detail: string }>()
      ).results.map((r) => r.detail);
      expect(
        plan.filter((line) => /^SCAN tasks\b(?! USING)/.test(line)),
        plan.join("\n"),
      ).toEqual([]);
    }
  });

  it("each chunk stays under CHUNK_BYTES plus one task, far below D1's 2,000,000-byte value limit", async () => {
    const db = createDb(env.DB);
    const rows = await chunkQuery(
      db,
      tasks,
      and(eq(tasks.accountId, user.accountId), sql`${tasks.deletedAt} IS NULL`),
      sql`${tasks.updatedAt}, ${tasks.id}`,
    );
    const sizes = rows.map((row) => new TextEncoder().encode(row.json).byteLength);
    expect(sizes.length).toBeGreaterThan(10);
    const largestTask = 130_000;
    for (const size of sizes) expect(size).toBeLessThan(CHUNK_BYTES + largestTask);
    expect(Math.max(...sizes)).toBeLessThan(2_000_000);
  });
});
