import { describe, expect, it } from "vitest";
import { call, createTask, json } from "../helpers";
import { listAll, patch, zonedUser } from "./support";

const get = (key: string, id: string) => call(`/api/v1/tasks/${id}`, { token: key });
const del = (key: string, id: string, headers?: Record<string, string>) =>
  call(`/api/v1/tasks/${id}`, { method: "DELETE", token: key, headers });

describe("ETag and If-Match", () => {
  it("GET /tasks/{id} answers 200 with a strong ETag, or 404", async () => {
    const user = await zonedUser();
    const created = await call("/api/v1/tasks", { token: user.key, body: { title: "Tagged" } });
    const etag = created.headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const task = await json(created);
    const res = await get(user.key, task.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe(etag);
    expect(await json(res)).toEqual(task);
    expect((await get(user.key, "no-such-task")).status).toBe(404);
    const other = await zonedUser();
    expect((await get(other.key, task.id)).status).toBe(404);
  });

  it("PATCH and DELETE with a current ETag succeed; the ETag changes with every write", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "v1" });
    const etag1 = (await get(user.key, task.id)).headers.get("ETag")!;
    const res = await patch(user.key, task.id, { title: "v2" }, { "If-Match": etag1 });
    expect(res.status).toBe(200);
    const etag2 = res.headers.get("ETag")!;
    expect(etag2).not.toBe(etag1);
    expect((await get(user.key, task.id)).headers.get("ETag")).toBe(etag2);
    expect((await del(user.key, task.id, { "If-Match": etag2 })).status).toBe(204);
  });

  it("PATCH with a stale ETag is 412 and changes nothing", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Original" });
    const stale = (await get(user.key, task.id)).headers.get("ETag")!;
    await patch(user.key, task.id, { title: "Someone else" });
    const res = await patch(user.key, task.id, { title: "Mine" }, { "If-Match": stale });
    expect(res.status).toBe(412);
    expect((await json(res)).code).toBe("precondition_failed");
    expect((await json(await get(user.key, task.id))).title).toBe("Someone else");
    // An empty patch is still checked.
    expect((await patch(user.key, task.id, {}, { "If-Match": stale })).status).toBe(412);
  });

  it("a stale ETag on completion of a repeating task changes nothing and creates nothing", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Repeat", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const stale = (await get(user.key, task.id)).headers.get("ETag")!;
    await patch(user.key, task.id, { notes: "edited" });
    expect((await patch(user.key, task.id, { completed: true }, { "If-Match": stale })).status).toBe(412);
    const list = await listAll(user.key);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ completed: false, repeat: "FREQ=DAILY" });
  });

  it("DELETE with a stale ETag is 412 and deletes nothing; a missing task is still 404", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Keep me" });
    const stale = (await get(user.key, task.id)).headers.get("ETag")!;
    await patch(user.key, task.id, { important: true });
    const res = await del(user.key, task.id, { "If-Match": stale });
    expect(res.status).toBe(412);
    expect((await get(user.key, task.id)).status).toBe(200);
    expect((await del(user.key, "missing", { "If-Match": stale })).status).toBe(404);
  });

  it("If-Match: * matches any current version; weak, foreign and malformed tags never match", async () => {
    const user = await zonedUser();
    const [a, b] = [await createTask(user.key, { title: "a" }), await createTask(user.key, { title: "b" })];
    const etagA = (await get(user.key, a.id)).headers.get("ETag")!;
    const etagB = (await get(user.key, b.id)).headers.get("ETag")!;
    expect((await patch(user.key, a.id, { title: "a2" }, { "If-Match": "*" })).status).toBe(200);
    const current = (await get(user.key, b.id)).headers.get("ETag")!;
    for (const tag of [`W/${etagB}`, etagA, '"garbage"', "nonsense"]) {
      expect((await patch(user.key, b.id, { title: "nope" }, { "If-Match": tag })).status).toBe(412);
    }
    expect((await patch(user.key, b.id, { title: "b2" }, { "If-Match": `"x", ${current}` })).status).toBe(200);
  });

  it("without If-Match the last write wins", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "first" });
    await patch(user.key, task.id, { title: "second" });
    expect((await patch(user.key, task.id, { title: "third" })).status).toBe(200);
    expect((await json(await get(user.key, task.id))).title).toBe("third");
  });

  it("of parallel PATCHes with the same If-Match, exactly one wins", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "contested" });
    const etag = (await get(user.key, task.id)).headers.get("ETag")!;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(user.key, task.id, { title: `writer ${i}` }, { "If-Match": etag })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
  });
});
