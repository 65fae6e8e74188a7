import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { keyVerdictRows } from "../../src/domain/api-keys/service";
import {
  heldListing,
  listingCacheSize,
  MAX_CACHE_BYTES,
  MAX_ENTRY_BYTES,
  pageToServe,
} from "../../src/domain/tasks/listing-cache";
import { call, createKey, createTask, grant, maxUser } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";

/** GET through a D1 binding that keeps the raw rows of each batch, to see whether D1 read the page. */
async function listSeeingRows(path: string, key: string) {
  const rows: unknown[] = [];
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          rows.push(...results.map((r) => r.results[0]));
          return results;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`http://example.com${path}`, { headers: { authorization: `Bearer ${key}` } }),
    { ...env, DB },
    ctx,
  );
  const body = await res.json<any>();
  await waitOnExecutionContext(ctx);
  const row = rows[0] as { json: string; count: number; verdict: string | null } | undefined;
  // The account's tasks_version rides in the key's verdict.
  const version = row ? (keyVerdictRows(row.verdict)[0]?.tasksVersion ?? null) : undefined;
  return { status: res.status, body, row: row && { ...row, version } };
}

const titles = (body: { data: { title: string }[] }) => body.data.map((t) => t.title).sort();

describe("listings an isolate holds, served while D1 reports the account unchanged", () => {
  it("reads the page from D1 once, then serves the same page while the version holds, with a fresh serverTime", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "a" });
    await createTask(user.key, { title: "b" });
    const first = await listSeeingRows("/api/v1/tasks", user.key);
    expect(first.status).toBe(200);
    expect(first.row!.count).toBe(2);
    expect(first.row!.version).toMatch(/^[0-9a-f]{16}$/);
    const second = await listSeeingRows("/api/v1/tasks", user.key);
    // D1 read no task: the page came from the isolate, byte for byte the same tasks.
    expect(second.row!.json).toBe("[]");
    expect(second.row!.version).toBe(first.row!.version);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.meta.count).toBe(2);
    expect(second.body.meta.serverTime >= first.body.meta.serverTime).toBe(true);
  });

  it("holds pages per query: a `limit` page and its cursor pages are served again too", async () => {
    const user = await maxUser();
    for (const title of ["a", "b", "c"]) await createTask(user.key, { title });
    const page1 = await listSeeingRows("/api/v1/tasks?limit=2", user.key);
    const again = await listSeeingRows("/api/v1/tasks?limit=2", user.key);
    expect(again.row!.json).toBe("[]");
    expect([again.body.data, again.body.meta.count]).toEqual([page1.body.data, 2]);
    // The cursor carries this response's serverTime, so it is a new one.
    expect(again.body.meta.nextCursor).toBeDefined();
    const completedOnly = await listSeeingRows("/api/v1/tasks?limit=2&completed=true", user.key);
    expect([completedOnly.row!.count, completedOnly.body.data]).toEqual([0, []]);
    const cursor = encodeURIComponent(page1.body.meta.nextCursor);
    const page2 = await listSeeingRows(`/api/v1/tasks?limit=2&cursor=${cursor}`, user.key);
    const page2Again = await listSeeingRows(`/api/v1/tasks?limit=2&cursor=${cursor}`, user.key);
    expect(page2Again.row!.json).toBe("[]");
    expect(page2Again.body).toEqual(page2.body);
    expect(titles(page1.body).concat(titles(page2.body)).sort()).toEqual(["a", "b", "c"]);
  });

  it("reads again after every kind of write: REST, MCP, completion, idempotent creation, deletion, a raw SQL edit", async () => {
    const user = await maxUser();
    const client = await mcpClient(user.key);
    const repeating = await createTask(user.key, { title: "water plants", due: "2026-12-01", repeat: "FREQ=DAILY" });
    const list = async () => {
      await listSeeingRows("/api/v1/tasks", user.key); // warm
      const seen = await listSeeingRows("/api/v1/tasks", user.key);
      expect(seen.row!.json).toBe("[]"); // held before the write
      return seen;
    };
    const afterWrite = async () => {
      const seen = await listSeeingRows("/api/v1/tasks", user.key);
      expect(seen.row!.json).not.toBe("[]"); // D1 read the page again
      return seen.body;
    };

    await list();
    await createTask(user.key, { title: "rest create" });
    expect(titles(await afterWrite())).toContain("rest create");

    await list();
    await callOk(client, "create_task", { title: "mcp create" });
    expect(titles(await afterWrite())).toContain("mcp create");

    await list();
    expect(
      (await call(`/api/v1/tasks/${repeating.id}`, { method: "PATCH", token: user.key, body: { title: "renamed" } }))
        .status,
    ).toBe(200);
    expect(titles(await afterWrite())).toContain("renamed");

    await list();
    expect(
      (await call(`/api/v1/tasks/${repeating.id}`, { method: "PATCH", token: user.key, body: { completed: true } }))
        .status,
    ).toBe(200);
    const completed = await afterWrite();
    expect(completed.data.filter((t: { title: string }) => t.title === "renamed")).toHaveLength(2); // done + next occurrence

    await list();
    const idempotent = {
      token: user.key,
      body: { title: "once" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    };
    expect((await call("/api/v1/tasks", idempotent)).status).toBe(201);
    expect(titles(await afterWrite())).toContain("once");

    await list();
    const { task } = await callOk(client, "create_task", { title: "to complete over MCP" });
    await list();
    await callOk(client, "complete_task", { id: task.id });
    expect((await afterWrite()).data.find((t: { id: string }) => t.id === task.id).completed).toBe(true);

    await list();
    expect((await call(`/api/v1/tasks/${task.id}`, { method: "DELETE", token: user.key })).status).toBe(204);
    expect(titles(await afterWrite())).not.toContain("to complete over MCP");

    await list();
    await env.DB.prepare("UPDATE tasks SET title = 'edited in the console' WHERE id = ?").bind(task.id).run();
    await env.DB.prepare("UPDATE tasks SET title = 'also edited' WHERE account_id = ? AND title = 'once'")
      .bind(user.accountId)
      .run();
    expect(titles(await afterWrite())).toContain("also edited");
  });

  it("never serves a held page to a revoked key or without Max: the check runs in D1 on every request", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "private" });
    await listSeeingRows("/api/v1/tasks", user.key);
    expect((await listSeeingRows("/api/v1/tasks", user.key)).row!.json).toBe("[]"); // held

    await grant(user.email, "free");
    const lapsed = await listSeeingRows("/api/v1/tasks", user.key);
    expect([lapsed.status, lapsed.body.code, lapsed.body.data]).toEqual([403, "max_required", undefined]);
    await grant(user.email, "max");
    const renewed = await listSeeingRows("/api/v1/tasks", user.key);
    expect([renewed.status, titles(renewed.body)]).toEqual([200, ["private"]]);

    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const revoked = await listSeeingRows("/api/v1/tasks", user.key);
    expect([revoked.status, revoked.body.code, revoked.body.data]).toEqual([401, "unauthorized", undefined]);
  });

  it("keeps each key's pages apart, and another key of the same account reads its own", async () => {
    const alice = await maxUser("alice");
    const bob = await maxUser("bob");
    await createTask(alice.key, { title: "alice's" });
    await createTask(bob.key, { title: "bob's" });
    for (let i = 0; i < 2; i++) {
      expect(titles((await listSeeingRows("/api/v1/tasks", alice.key)).body)).toEqual(["alice's"]);
      expect(titles((await listSeeingRows("/api/v1/tasks", bob.key)).body)).toEqual(["bob's"]);
    }
    const second = await createKey(alice.session, "second key");
    const other = await listSeeingRows("/api/v1/tasks", second.key);
    expect(other.row!.json).not.toBe("[]");
    expect(titles(other.body)).toEqual(["alice's"]);
  });

  it("answers a new account (no version yet) from D1 every time", async () => {
    const user = await maxUser();
    for (let i = 0; i < 2; i++) {
      const seen = await listSeeingRows("/api/v1/tasks", user.key);
      expect([seen.status, seen.row!.version, seen.body.data]).toEqual([200, null, []]);
    }
  });
});

describe("the listing cache's bounds and races", () => {
  const page = (json: string) => ({ json, count: 1, fetched: 1, lastId: null });

  it("does not keep a page above the entry limit", () => {
    const before = listingCacheSize().entries;
    pageToServe("big", undefined, "v1", page("x".repeat(MAX_ENTRY_BYTES)));
    expect(heldListing("big")).toBeUndefined();
    expect(listingCacheSize().entries).toBe(before);
  });

  it("evicts the least recently used pages beyond the isolate's total", () => {
    const json = "y".repeat(MAX_ENTRY_BYTES / 2 - 100); // just under the entry limit
    const fit = Math.floor(MAX_CACHE_BYTES / (2 * (json.length + "lru-00".length) + 64));
    const keys = Array.from({ length: fit }, (_, i) => `lru-${String(i).padStart(2, "0")}`);
    for (const key of keys) pageToServe(key, undefined, "v1", page(json));
    for (const key of keys) expect(heldListing(key), key).toBeDefined();
    // The first is used again, so the second is now the least recently used; one more page must evict it.
    expect(pageToServe(keys[0]!, heldListing(keys[0]!), "v1", page("[]")).json).toBe(json);
    pageToServe("lru-xx", undefined, "v1", page(json));
    expect(heldListing(keys[0]!)).toBeDefined();
    expect(heldListing(keys[1]!)).toBeUndefined();
    expect(heldListing("lru-xx")).toBeDefined();
    expect(listingCacheSize().bytes).toBeLessThanOrEqual(MAX_CACHE_BYTES);
  });

  it("serves the page its statement's version came from, even if a concurrent request replaced the entry", () => {
    pageToServe("race", undefined, "v1", page("[1]"));
    const held = heldListing("race")!;
    // Another request, meanwhile, read a newer version.
    pageToServe("race", held, "v2", page("[2]"));
    // This statement was sent v1 and D1 still said v1 (its snapshot): it read nothing and gets v1's page.
    expect(pageToServe("race", held, "v1", page("[]")).json).toBe("[1]");
    // A statement sent v2 and told v3 read the page itself, which replaces the entry.
    expect(pageToServe("race", heldListing("race"), "v3", page("[3]")).json).toBe("[3]");
    expect(heldListing("race")!.version).toBe("v3");
  });

  it("forgets a held page when D1 reports no version", () => {
    pageToServe("gone", undefined, "v1", page("[1]"));
    pageToServe("gone", heldListing("gone"), null, page("[]"));
    expect(heldListing("gone")).toBeUndefined();
  });
});
