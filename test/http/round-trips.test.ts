import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { generateApiKey } from "../../src/domain/api-keys/format";
import { handleMcp } from "../../src/mcp/handler";
import { call, createKey, createTask, json, maxUser, signUp } from "../helpers";
import { probedD1 } from "../support/d1-probes";

async function tripsOf(
  path: string,
  key: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; trips: number; statements: number; body: any; etag: string }> {
  const { db, counter } = probedD1(env.DB);
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { ...init.headers, authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://example.com${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await createApp().fetch(request, { ...env, DB: db }, ctx);
  const body = res.status === 204 ? null : await res.json();
  const { trips, statements } = counter;
  await waitOnExecutionContext(ctx);
  return { status: res.status, trips, statements, body, etag: res.headers.get("etag") ?? "" };
}

/** One JSON-RPC call to /mcp (2025-era, no initialize) through a counting D1 binding. */
async function mcpTripsOf(
  key: string,
  method: string,
  params: unknown,
): Promise<{ status: number; trips: number; statements: number; body: any }> {
  const { db, counter } = probedD1(env.DB);
  const ctx = createExecutionContext();
  const request = new Request("http://example.com/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const res = await handleMcp(request, { ...env, DB: db }, ctx);
  const body = await res.json();
  const { trips, statements } = counter;
  await waitOnExecutionContext(ctx);
  return { status: res.status, trips, statements, body };
}

const countTasks = async (accountId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM tasks WHERE account_id = ?").bind(accountId).first<{ n: number }>())!
    .n;

describe("task routes in one D1 round trip each", () => {
  it("creates, reads, updates and deletes in one statement, its row carrying the key's verdict", async () => {
    const user = await maxUser();
    await call("/api/v1/tasks", { token: user.key });
    const created = await tripsOf("/api/v1/tasks", user.key, { method: "POST", body: { title: "one trip" } });
    expect(created.status).toBe(201);
    // The insert alone: its RETURNING row carries the key lookup.
    expect([created.trips, created.statements]).toEqual([1, 1]);
    expect(created.body).not.toHaveProperty("verdict");
    const id = created.body.id as string;
    const read = await tripsOf(`/api/v1/tasks/${id}`, user.key);
    expect([read.status, read.trips, read.statements]).toEqual([200, 1, 1]);
    expect(read.body).not.toHaveProperty("verdict");
    const patched = await tripsOf(`/api/v1/tasks/${id}`, user.key, { method: "PATCH", body: { title: "renamed" } });
    expect([patched.status, patched.trips, patched.statements, patched.body.title]).toEqual([200, 1, 1, "renamed"]);
    // With If-Match too: the existence check that tells 412 from 404 is sent only when nothing was updated.
    const guarded = await tripsOf(`/api/v1/tasks/${id}`, user.key, {
      method: "PATCH",
      body: { title: "guarded" },
      headers: { "If-Match": patched.etag },
    });
    expect([guarded.status, guarded.trips, guarded.statements, guarded.body.title]).toEqual([200, 1, 1, "guarded"]);
    const unchanged = await tripsOf(`/api/v1/tasks/${id}`, user.key, { method: "PATCH", body: {} });
    expect([unchanged.status, unchanged.trips, unchanged.statements, unchanged.etag]).toEqual([
      200,
      1,
      1,
      guarded.etag,
    ]);

    // A request that finds nothing takes a second round trip: the lookup, then the update again, and
    // with If-Match the existence check. So 412 and 404 stay apart, and the key is still judged first.
    const stale = await tripsOf(`/api/v1/tasks/${id}`, user.key, {
      method: "PATCH",
      body: { title: "late" },
      headers: { "If-Match": patched.etag },
    });
    expect([stale.status, stale.body.code, stale.trips, stale.statements]).toEqual([
      412,
      "precondition_failed",
      2,
      1 + 3,
    ]);
    const missing = await tripsOf(`/api/v1/tasks/${crypto.randomUUID()}`, user.key, {
      method: "PATCH",
      body: { title: "nobody" },
    });
    expect([missing.status, missing.body.code, missing.trips, missing.statements]).toEqual([
      404,
      "task_not_found",
      2,
      1 + 2,
    ]);
    const unread = await tripsOf(`/api/v1/tasks/${crypto.randomUUID()}`, user.key);
    expect([unread.status, unread.body.code, unread.trips]).toEqual([404, "task_not_found", 2]);

    const deleted = await tripsOf(`/api/v1/tasks/${id}`, user.key, { method: "DELETE" });
    expect([deleted.status, deleted.trips, deleted.statements]).toEqual([204, 1, 1]);
    const gone = await tripsOf(`/api/v1/tasks/${id}`, user.key, { method: "DELETE" });
    expect([gone.status, gone.body.code, gone.trips, gone.statements]).toEqual([404, "task_not_found", 2, 1 + 2]);
    const other = await createTask(user.key, { title: "guarded delete" });
    const staleDelete = await tripsOf(`/api/v1/tasks/${other.id}`, user.key, {
      method: "DELETE",
      headers: { "If-Match": '"0-0"' },
    });
    expect([staleDelete.status, staleDelete.body.code, staleDelete.trips, staleDelete.statements]).toEqual([
      412,
      "precondition_failed",
      2,
      1 + 3,
    ]);
    const kept = await tripsOf(`/api/v1/tasks/${other.id}`, user.key);
    expect([kept.status, kept.body.title]).toEqual([200, "guarded delete"]);
  });

  it("writes nothing for a key without Max or a revoked key, though the write is sent before the lookup", async () => {
    const free = await signUp("free-writer");
    const { key } = await createKey(free.session);
    const refused = await tripsOf("/api/v1/tasks", key, { method: "POST", body: { title: "must not exist" } });
    // The insert inserts nothing for a refused key; the second trip's lookup tells 403 from 401.
    expect([refused.status, refused.body.code, refused.trips, refused.statements]).toEqual([
      403,
      "max_required",
      2,
      1 + 2,
    ]);
    expect(await countTasks(free.accountId)).toBe(0);

    const user = await maxUser();
    const task = await createTask(user.key, { title: "keep me" });
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const patched = await tripsOf(`/api/v1/tasks/${task.id}`, user.key, {
      method: "PATCH",
      body: { title: "changed" },
    });
    expect([patched.status, patched.body.code, patched.trips]).toEqual([401, "unauthorized", 2]);
    const deleted = await tripsOf(`/api/v1/tasks/${task.id}`, user.key, { method: "DELETE" });
    expect([deleted.status, deleted.body.code, deleted.trips]).toEqual([401, "unauthorized", 2]);
    const read = await tripsOf(`/api/v1/tasks/${task.id}`, user.key);
    expect([read.status, read.body.code]).toEqual([401, "unauthorized"]);
    const row = await env.DB.prepare("SELECT title, deleted_at FROM tasks WHERE id = ?").bind(task.id).first();
    expect(row).toEqual({ title: "keep me", deleted_at: null });
    const created = await tripsOf("/api/v1/tasks", user.key, { method: "POST", body: { title: "nope" } });
    expect(created.status).toBe(401);
    expect(await countTasks(user.accountId)).toBe(1);
  });
});

/** Another ETag of the same task, at an earlier updatedAt (etag.ts: "<task tag>-<ms in base 36>"). */
const olderVersionOf = (etag: string) => {
  const [tag, ms] = etag.slice(1, -1).split("-") as [string, string];
  return `"${tag}-${(Number.parseInt(ms, 36) - 1).toString(36)}"`;
};

describe("a write runs once", () => {
  it("applies a PATCH with several If-Match ETags exactly once (no re-run behind a lookup)", async () => {
    const user = await maxUser();
    const task = await createTask(user.key, { title: "v1" });
    const etag = (await call(`/api/v1/tasks/${task.id}`, { token: user.key })).headers.get("ETag")!;
    const res = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { title: "v2" },
      // Two versions of this task (one older, never current): the uncompiled update path.
      headers: { "If-Match": `${olderVersionOf(etag)}, ${etag}` },
    });
    expect(res.status).toBe(200);
    const after = await call(`/api/v1/tasks/${task.id}`, { token: user.key });
    // Run twice, the second run would have bumped updatedAt again or failed If-Match (412).
    expect(after.headers.get("ETag")).toBe(res.headers.get("ETag"));
  });
});

describe("GET /api/v1/tasks in one D1 round trip", () => {
  it("authenticates, checks Max and lists in a single round trip", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "a" });
    await createTask(user.key, { title: "b" });
    // Let the first request's lastUsedAt refresh settle, so only the listing is counted.
    await call("/api/v1/tasks", { token: user.key });
    const listed = await tripsOf("/api/v1/tasks", user.key);
    expect(listed.status).toBe(200);
    expect(listed.body.meta.count).toBe(2);
    expect(listed.trips).toBe(1);
    // The page's row carries the key's verdict: no lookup statement of its own.
    expect(listed.statements).toBe(1);
    const paged = await tripsOf("/api/v1/tasks?limit=1", user.key);
    expect([paged.status, paged.body.data.length, paged.trips, paged.statements]).toEqual([200, 1, 1, 1]);
    const delta = await tripsOf(
      `/api/v1/tasks?since=${encodeURIComponent(listed.body.meta.serverTime)}&limit=1`,
      user.key,
    );
    expect(delta.status).toBe(200);
    // The page and the tombstones since then.
    expect([delta.trips, delta.statements]).toEqual([1, 2]);
  });

  it("still refuses a dead key (401) and a free key (403) in that one round trip", async () => {
    const user = await maxUser();
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const revoked = await tripsOf("/api/v1/tasks", user.key);
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe("unauthorized");
    expect([revoked.trips, revoked.statements]).toEqual([1, 1]);
    const free = await signUp("free");
    const { key } = await createKey(free.session);
    const refused = await tripsOf("/api/v1/tasks", key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("max_required");
    // Unknown to the database (well-formed, never issued): 401, and nothing listed for it.
    const unknown = await tripsOf("/api/v1/tasks", generateApiKey(crypto.randomUUID()));
    expect([unknown.status, unknown.body.code, unknown.statements]).toEqual([401, "unauthorized", 1]);
  });

  it("judges credentials before the query: a bad `since` is 401 for a dead key, 403 without Max, 400 with Max", async () => {
    const user = await maxUser();
    const bad = "/api/v1/tasks?since=not-a-date";
    const free = await signUp("free");
    const { key: freeKey } = await createKey(free.session);
    const anotherFreeKey = (await createKey((await signUp()).session)).key;
    await call(
      `/account/api-keys/${(await json(await call("/account/api-keys", { token: user.session }))).data[0].id}`,
      {
        method: "DELETE",
        token: user.session,
      },
    );
    expect((await call(bad, { token: user.key })).status).toBe(401);
    expect((await call(bad, { token: freeKey })).status).toBe(403);
    expect((await call(bad, { token: anotherFreeKey })).status).toBe(403);
    const max = await maxUser();
    const res = await call(bad, { token: max.key });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].path).toBe("since");
    // Expired sync windows are judged after credentials too.
    const old = "/api/v1/tasks?since=2001-01-01T00:00:00Z";
    expect((await call(old, { token: user.key })).status).toBe(401);
    expect((await call(old, { token: max.key })).status).toBe(410);
  });
});

describe("MCP in one D1 round trip", () => {
  it("lists and creates with the key lookup inside the tool's statement; other methods pay only the lookup", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "a" });
    // Let the first request's lastUsedAt refresh settle, so only the tool is counted.
    await mcpTripsOf(user.key, "tools/list", {});
    const listed = await mcpTripsOf(user.key, "tools/call", { name: "list_tasks", arguments: {} });
    expect([listed.status, listed.body.result.structuredContent.count, listed.trips, listed.statements]).toEqual([
      200, 1, 1, 1,
    ]);
    const created = await mcpTripsOf(user.key, "tools/call", { name: "create_task", arguments: { title: "one trip" } });
    expect([
      created.status,
      created.body.result.structuredContent.task.title,
      created.trips,
      created.statements,
    ]).toEqual([200, "one trip", 1, 1]);
    expect(created.body.result.structuredContent.task).not.toHaveProperty("verdict");
    const tools = await mcpTripsOf(user.key, "tools/list", {});
    expect([tools.status, tools.body.result.tools.length, tools.trips]).toEqual([200, 7, 1]);
  });

  it("answers a dead key with HTTP 401 and writes nothing, though the write ran before the verdict", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "keep me" });
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    for (const [method, params] of [
      ["tools/call", { name: "create_task", arguments: { title: "must not exist" } }],
      ["tools/call", { name: "list_tasks", arguments: {} }],
      ["tools/call", { name: "list_tasks", arguments: { limit: "not a number" } }],
      ["tools/list", {}],
    ] as const) {
      const refused = await mcpTripsOf(user.key, method, params);
      expect([refused.status, refused.body.code], JSON.stringify(params)).toEqual([401, "unauthorized"]);
    }
    expect(await countTasks(user.accountId)).toBe(1);
  });
});

describe("completion in one D1 round trip unless the task repeats", () => {
  it("completes a task that does not repeat in one round trip, through REST and MCP", async () => {
    const user = await maxUser();
    const [a, b] = [await createTask(user.key, { title: "a" }), await createTask(user.key, { title: "b" })];
    await mcpTripsOf(user.key, "tools/list", {});
    const patched = await tripsOf(`/api/v1/tasks/${a.id}`, user.key, {
      method: "PATCH",
      body: { completed: true, title: "a, done" },
    });
    expect([patched.status, patched.body.completed, patched.body.title, patched.trips]).toEqual([
      200,
      true,
      "a, done",
      1,
    ]);
    const viaMcp = await mcpTripsOf(user.key, "tools/call", { name: "complete_task", arguments: { id: b.id } });
    const done = viaMcp.body.result.structuredContent;
    expect([viaMcp.status, done.task.completed, done.next, viaMcp.trips]).toEqual([200, true, undefined, 1]);
    // Completing it again through MCP changes nothing (idempotent), still in one round trip.
    const again = await mcpTripsOf(user.key, "tools/call", { name: "complete_task", arguments: { id: b.id } });
    expect([again.body.result.structuredContent.task.updatedAt, again.trips]).toEqual([done.task.updatedAt, 1]);
    // A PATCH rewrites a completed task (its updatedAt moves), also in one.
    const rewritten = await tripsOf(`/api/v1/tasks/${a.id}`, user.key, { method: "PATCH", body: { completed: true } });
    expect([rewritten.status, rewritten.trips, rewritten.body.updatedAt > patched.body.updatedAt]).toEqual([
      200,
      1,
      true,
    ]);
  });

  it("completes a repeating task in two round trips, creating its next occurrence once", async () => {
    const user = await maxUser();
    const task = await createTask(user.key, { title: "weekly", due: "2026-12-01", repeat: "FREQ=WEEKLY" });
    await mcpTripsOf(user.key, "tools/list", {});
    const viaMcp = await mcpTripsOf(user.key, "tools/call", { name: "complete_task", arguments: { id: task.id } });
    const { task: done, next } = viaMcp.body.result.structuredContent;
    expect([done.completed, done.repeat, next.due, next.repeat, viaMcp.trips]).toEqual([
      true,
      undefined,
      "2026-12-08",
      "FREQ=WEEKLY",
      2,
    ]);
    // A PATCH that starts a series while completing also takes the reading path.
    const plain = await createTask(user.key, { title: "becomes daily", due: "2026-12-01" });
    const started = await tripsOf(`/api/v1/tasks/${plain.id}`, user.key, {
      method: "PATCH",
      body: { completed: true, repeat: "FREQ=DAILY" },
    });
    expect([started.status, started.trips]).toEqual([200, 2]);
    expect(await countTasks(user.accountId)).toBe(4);
    // One that ends the series while completing cannot start an occurrence: one round trip, no `next`.
    const series = await createTask(user.key, { title: "monthly", due: "2026-12-01", repeat: "FREQ=MONTHLY" });
    const ended = await tripsOf(`/api/v1/tasks/${series.id}`, user.key, {
      method: "PATCH",
      body: { completed: true, repeat: "" },
    });
    expect([ended.status, ended.body.completed, ended.body.repeat, ended.trips]).toEqual([200, true, undefined, 1]);
    expect(await countTasks(user.accountId)).toBe(5);
  });

  it("answers 404, 412 and 401 without writing", async () => {
    const user = await maxUser();
    const task = await createTask(user.key, { title: "guarded" });
    const missing = await tripsOf(`/api/v1/tasks/${crypto.randomUUID()}`, user.key, {
      method: "PATCH",
      body: { completed: true },
    });
    expect([missing.status, missing.body.code, missing.trips]).toEqual([404, "task_not_found", 1]);
    const stale = await tripsOf(`/api/v1/tasks/${task.id}`, user.key, {
      method: "PATCH",
      body: { completed: true },
      headers: { "If-Match": '"0-0"' },
    });
    expect([stale.status, stale.body.code, stale.trips]).toEqual([412, "precondition_failed", 1]);
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const refused = await tripsOf(`/api/v1/tasks/${task.id}`, user.key, { method: "PATCH", body: { completed: true } });
    expect(refused.status).toBe(401);
    const viaMcp = await mcpTripsOf(user.key, "tools/call", { name: "complete_task", arguments: { id: task.id } });
    expect([viaMcp.status, viaMcp.body.code]).toEqual([401, "unauthorized"]);
    const row = await env.DB.prepare("SELECT completed, updated_at FROM tasks WHERE id = ?").bind(task.id).first();
    expect(row).toEqual({ completed: 0, updated_at: task.updatedAt });
  });
});

describe("idempotent creation in one D1 round trip", () => {
  const countKeys = async (accountId: string) =>
    (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?")
      .bind(accountId)
      .first<{ n: number }>())!.n;

  it("creates and replays with the key lookup inside the claim's batch, through REST and MCP", async () => {
    const user = await maxUser();
    await mcpTripsOf(user.key, "tools/list", {});
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await tripsOf("/api/v1/tasks", user.key, { method: "POST", body: { title: "once" }, headers });
    expect([first.status, first.trips]).toEqual([201, 1]);
    const replay = await tripsOf("/api/v1/tasks", user.key, { method: "POST", body: { title: "once" }, headers });
    expect([replay.status, replay.body.id, replay.trips]).toEqual([201, first.body.id, 1]);
    const clientRequestId = crypto.randomUUID();
    const viaMcp = await mcpTripsOf(user.key, "tools/call", {
      name: "create_task",
      arguments: { title: "once via MCP", clientRequestId },
    });
    const again = await mcpTripsOf(user.key, "tools/call", {
      name: "create_task",
      arguments: { title: "once via MCP", clientRequestId },
    });
    const [made, replayed] = [viaMcp.body.result.structuredContent.task, again.body.result.structuredContent.task];
    expect([viaMcp.trips, again.trips, replayed.id]).toEqual([1, 1, made.id]);
    expect([await countTasks(user.accountId), await countKeys(user.accountId)]).toEqual([2, 2]);
  });

  it("claims and writes nothing for a key without Max or a revoked key", async () => {
    const free = await signUp("free-idempotent");
    const { key } = await createKey(free.session);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const refused = await tripsOf("/api/v1/tasks", key, { method: "POST", body: { title: "must not exist" }, headers });
    expect([refused.status, refused.body.code]).toEqual([403, "max_required"]);
    expect([await countTasks(free.accountId), await countKeys(free.accountId)]).toEqual([0, 0]);

    const user = await maxUser();
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const revoked = await tripsOf("/api/v1/tasks", user.key, { method: "POST", body: { title: "nope" }, headers });
    expect(revoked.status).toBe(401);
    const viaMcp = await mcpTripsOf(user.key, "tools/call", {
      name: "create_task",
      arguments: { title: "nope", clientRequestId: crypto.randomUUID() },
    });
    expect([viaMcp.status, viaMcp.body.code]).toEqual([401, "unauthorized"]);
    expect([await countTasks(user.accountId), await countKeys(user.accountId)]).toEqual([0, 0]);
  });
});
