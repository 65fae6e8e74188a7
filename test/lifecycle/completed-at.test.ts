import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";
import { listAll, patch } from "./support";

const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const get = async (key: string, id: string) => json(await call(`/api/v1/tasks/${id}`, { token: key }));

describe("completedAt: when a task was completed", () => {
  it("is set by the database clock on completion, kept when completed again, cleared on reopening", async () => {
    const user = await maxUser("completed-at");
    const task = await createTask(user.key, { title: "File taxes" });
    expect(task).not.toHaveProperty("completedAt");
    const done = await json(await patch(user.key, task.id, { completed: true }));
    expect(done.completedAt).toMatch(isoMillis);
    expect(done.completedAt >= task.updatedAt && done.completedAt <= done.updatedAt).toBe(true);
    // A PATCH that rewrites a completed task does not move the moment it was completed.
    const renamed = await json(await patch(user.key, task.id, { completed: true, title: "File taxes (2026)" }));
    expect(renamed.completedAt).toBe(done.completedAt);
    expect(await get(user.key, task.id)).toMatchObject({ completedAt: done.completedAt });
    const reopened = await json(await patch(user.key, task.id, { completed: false }));
    expect(reopened).not.toHaveProperty("completedAt");
    expect((await listAll(user.key)).data[0]).not.toHaveProperty("completedAt");
  });

  it("reaches MCP results and `since` syncs, and is output only", async () => {
    const user = await maxUser("completed-at-mcp");
    const task = await createTask(user.key, { title: "Call the bank" });
    const since = (await listAll(user.key)).meta.serverTime;
    const client = await mcpClient(user.key);
    const { task: done } = await callOk(client, "complete_task", { id: task.id });
    expect(done.completedAt).toMatch(isoMillis);
    const synced = await listAll(user.key, `?since=${encodeURIComponent(since)}`);
    expect(synced.data).toEqual([expect.objectContaining({ id: task.id, completedAt: done.completedAt })]);
    const listed = await callOk(client, "list_tasks", { completed: true });
    expect(listed.tasks[0].completedAt).toBe(done.completedAt);
    const refused = await call("/api/v1/tasks", {
      method: "POST",
      token: user.key,
      body: { title: "x", completedAt: done.completedAt },
    });
    expect(refused.status).toBe(400);
    expect((await patch(user.key, task.id, { completedAt: null })).status).toBe(400);
  });

  it("a completed occurrence of a repeating task keeps its own completedAt; the next one has none", async () => {
    const user = await maxUser("completed-at-repeat");
    const task = await createTask(user.key, { title: "Water plants", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const first = await json(await patch(user.key, task.id, { completed: true }));
    const next = (await listAll(user.key, "?completed=false")).data[0];
    expect(first.completedAt).toMatch(isoMillis);
    expect(next).not.toHaveProperty("completedAt");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await json(await patch(user.key, next.id, { completed: true }));
    expect(second.completedAt > first.completedAt).toBe(true);
    expect(await get(user.key, task.id)).toMatchObject({ completedAt: first.completedAt });
  });

  it("migration 0006 gives D1 tasks completed before it their updatedAt (rows of the single-database release)", async () => {
    const user = await maxUser("completed-at-migration");
    const id = crypto.randomUUID();
    // As the previous release stored a task completed before the column existed.
    await env.DB.prepare(
      "INSERT INTO tasks (id, account_id, title, completed, updated_at) VALUES (?, ?, 'Old and done', 1, '2026-01-02T03:04:05.678Z')",
    )
      .bind(id, user.accountId)
      .run();
    const migrations = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS;
    const backfill = migrations
      .find((m) => m.name.startsWith("0006_"))!
      .queries.filter((q) => /^\s*(--.*\n\s*)*UPDATE/.test(q));
    expect(backfill).toHaveLength(1);
    await env.DB.prepare(backfill[0]!).run();
    const row = await env.DB.prepare("SELECT completed_at AS completedAt FROM tasks WHERE id = ?")
      .bind(id)
      .first<{ completedAt: string }>();
    expect(row?.completedAt).toBe("2026-01-02T03:04:05.678Z");
  });
});
