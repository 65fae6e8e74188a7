import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";

type Task = { id: string; updatedAt: string; title: string };

async function list(key: string, query = "") {
  const res = await call(`/api/v1/tasks${query}`, { token: key });
  expect(res.status).toBe(200);
  return json<{
    data: Task[];
    meta: { count: number; serverTime: string; deleted?: { id: string; deletedAt: string }[] };
  }>(res);
}

describe("GET /api/v1/tasks and since", () => {
  it("lists all live tasks ordered by updatedAt then id, with count and serverTime", async () => {
    const user = await maxUser();
    const a = await createTask(user.key, { title: "a" });
    const b = await createTask(user.key, { title: "b" });
    await call(`/api/v1/tasks/${a.id}`, { method: "PATCH", token: user.key, body: { title: "a2" } });
    const body = await list(user.key);
    expect(body.data.map((t) => t.id)).toEqual([b.id, a.id]);
    expect(body.meta.count).toBe(2);
    expect(body.meta.serverTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.meta).not.toHaveProperty("deleted");
  });

  it("is inclusive and returns only changes at or after since, plus tombstones", async () => {
    const user = await maxUser();
    const old = await createTask(user.key, { title: "old" });
    const gone = await createTask(user.key, { title: "gone" });
    const first = await list(user.key);
    const fresh = await createTask(user.key, { title: "fresh" });
    await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
    const delta = await list(user.key, `?since=${encodeURIComponent(first.meta.serverTime)}`);
    expect(delta.data.map((t) => t.id)).toEqual([fresh.id]);
    expect(delta.meta.deleted?.map((d) => d.id)).toEqual([gone.id]);
    expect(delta.meta.count).toBe(1);
    // Inclusive: since equal to a task's updatedAt returns that task.
    const exact = await list(user.key, `?since=${encodeURIComponent(old.updatedAt)}`);
    expect(exact.data.map((t) => t.id)).toContain(old.id);
  });

  it("accepts since with an offset and compares it as an instant", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    const ms = Date.parse(task.updatedAt);
    const local = new Date(ms + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect((await list(user.key, `?since=${encodeURIComponent(local)}`)).data.map((t) => t.id)).toEqual([task.id]);
    const later = new Date(ms + 1).toISOString();
    expect((await list(user.key, `?since=${encodeURIComponent(later)}`)).data).toEqual([]);
  });

  it.each(["yesterday", "2026-13-01T00:00:00Z", "2026-11-22", "1700000000"])(
    "answers 400 for since=%s",
    async (since) => {
      const user = await maxUser();
      const res = await call(`/api/v1/tasks?since=${encodeURIComponent(since)}`, { token: user.key });
      expect(res.status).toBe(400);
      const problem = await json(res);
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors[0].path).toBe("since");
    },
  );

  it("never misses a change made while other writes run concurrently", async () => {
    const user = await maxUser();
    const seen = new Map<string, string>();
    let since: string | undefined;
    const writes = Array.from({ length: 24 }, (_, i) => createTask(user.key, { title: `w${i}` }));
    // Sync loops interleaved with the writes.
    for (let round = 0; round < 6; round++) {
      const page = await list(user.key, since ? `?since=${encodeURIComponent(since)}` : "");
      for (const t of page.data) seen.set(t.id, t.updatedAt);
      since = page.meta.serverTime;
    }
    const created = await Promise.all(writes);
    const final = await list(user.key, `?since=${encodeURIComponent(since!)}`);
    for (const t of final.data) seen.set(t.id, t.updatedAt);
    for (const task of created) expect(seen.has(task.id)).toBe(true);
  });
});
