import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";

/** Issue 34: subtasks and their rules, over REST against the real account object. */

const get = async (key: string, id: string, query = "") => call(`/api/v1/tasks/${id}${query}`, { token: key });
const patch = (key: string, id: string, body: unknown) =>
  call(`/api/v1/tasks/${id}`, { method: "PATCH", token: key, body });
const move = (key: string, id: string, body: unknown) => call(`/api/v1/tasks/${id}/move`, { token: key, body });

/** A plan: parent › [a › [a1], b]. */
async function plan(key: string, extra: Record<string, unknown> = {}) {
  return createTask(key, {
    title: "Launch",
    listId: "work",
    ...extra,
    subtasks: [{ title: "a", subtasks: [{ title: "a1" }] }, { title: "b" }],
  });
}

describe("creating subtasks", () => {
  it("creates a task with nested subtasks in one call, in its list, in order, and GET ?subtasks=true gives the tree", async () => {
    const user = await maxUser("subtasks-create");
    const parent = await plan(user.key);
    expect(parent.subtasks.map((t: { title: string }) => t.title)).toEqual(["a", "b"]);
    const [a, b] = parent.subtasks;
    expect(a.parentId).toBe(parent.id);
    expect(a.listId).toBe("work");
    expect(a.subtasks[0].parentId).toBe(a.id);
    expect(a.position < b.position).toBe(true);

    const tree = await json(await get(user.key, parent.id, "?subtasks=true"));
    expect(tree.subtaskCounts).toEqual({ open: 2, total: 2 });
    expect(tree.subtasks.map((t: { id: string }) => t.id)).toEqual([a.id, b.id]);
    expect(tree.subtasks[0].subtasks.map((t: { title: string }) => t.title)).toEqual(["a1"]);
    expect(tree.subtasks[1].subtaskCounts).toBeUndefined();
    // Without the flag: counts, no tree.
    const plain = await json(await get(user.key, parent.id));
    expect(plain.subtasks).toBeUndefined();
    expect(plain.subtaskCounts).toEqual({ open: 2, total: 2 });
    const listed = await json(await call("/api/v1/tasks?parentId=", { token: user.key }));
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].subtaskCounts).toEqual({ open: 2, total: 2 });
    const children = await json(await call(`/api/v1/tasks?parentId=${parent.id}`, { token: user.key }));
    expect(children.data.map((t: { title: string }) => t.title).sort()).toEqual(["a", "b"]);
  });

  it("replays a create with subtasks under the same Idempotency-Key, creating nothing twice", async () => {
    const user = await maxUser("subtasks-replay");
    const body = { title: "Plan", subtasks: [{ title: "one", subtasks: [{ title: "deep" }] }, { title: "two" }] };
    const send = () => call("/api/v1/tasks", { token: user.key, body, headers: { "Idempotency-Key": "plan-1" } });
    const first = await send();
    const again = await send();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).data).toHaveLength(4);
  });

  it("puts a subtask in its parent's list, and refuses a listId that differs", async () => {
    const user = await maxUser("subtasks-list");
    const parent = await createTask(user.key, { title: "p", listId: "work" });
    const child = await createTask(user.key, { title: "c", parentId: parent.id });
    expect(child.listId).toBe("work");
    const res = await call("/api/v1/tasks", {
      token: user.key,
      body: { title: "c", parentId: parent.id, listId: "home" },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).detail).toMatch(/parent's list/);
  });

  it("refuses a fifth level, and more than 50 tasks in one create, saying why", async () => {
    const user = await maxUser("subtasks-depth");
    const l1 = await plan(user.key);
    const l3 = l1.subtasks[0].subtasks[0];
    const l4 = await createTask(user.key, { title: "l4", parentId: l3.id });
    const fifth = await call("/api/v1/tasks", { token: user.key, body: { title: "l5", parentId: l4.id } });
    expect(fifth.status).toBe(400);
    expect((await json(fifth)).detail).toMatch(/at most 4 levels/);
    const nested = await call("/api/v1/tasks", {
      token: user.key,
      body: {
        title: "1",
        subtasks: [{ title: "2", subtasks: [{ title: "3", subtasks: [{ title: "4", subtasks: [{ title: "5" }] }] }] }],
      },
    });
    expect(nested.status).toBe(400);
    expect((await json(nested)).detail).toMatch(/at most 4 levels/);
    const many = await call("/api/v1/tasks", {
      token: user.key,
      body: { title: "big", subtasks: Array.from({ length: 50 }, (_, i) => ({ title: `s${i}` })) },
    });
    expect(many.status).toBe(400);
    expect((await json(many)).detail).toMatch(/at most 50 tasks/);
    // Nothing of a refused create was written.
    const all = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(all.data.some((t: { title: string }) => t.title === "big" || t.title === "5")).toBe(false);
  });

  it("refuses a cycle: a task under itself or under its own subtask", async () => {
    const user = await maxUser("subtasks-cycle");
    const parent = await plan(user.key);
    const a1 = parent.subtasks[0].subtasks[0];
    for (const target of [parent.id, a1.id]) {
      const res = await patch(user.key, parent.id, { parentId: target });
      expect(res.status).toBe(400);
      expect((await json(res)).detail).toMatch(/cycle/);
    }
  });
});

describe("the rules of a tree", () => {
  it("completing a parent completes its open subtasks at every level", async () => {
    const user = await maxUser("subtasks-complete");
    const parent = await plan(user.key);
    const res = await patch(user.key, parent.id, { completed: true });
    expect(res.status).toBe(200);
    const tree = await json(await get(user.key, parent.id, "?subtasks=true"));
    expect(tree.subtaskCounts).toEqual({ open: 0, total: 2 });
    expect(tree.subtasks.every((t: { completed: boolean }) => t.completed)).toBe(true);
    expect(tree.subtasks[0].subtasks[0].completed).toBe(true);
  });

  it("reopening a subtask reopens its completed parents", async () => {
    const user = await maxUser("subtasks-reopen");
    const parent = await plan(user.key);
    await patch(user.key, parent.id, { completed: true });
    const a1 = parent.subtasks[0].subtasks[0];
    await patch(user.key, a1.id, { completed: false });
    const tree = await json(await get(user.key, parent.id, "?subtasks=true"));
    expect(tree.completed).toBe(false);
    expect(tree.subtasks[0].completed).toBe(false);
    // Its sibling stays done.
    expect(tree.subtasks[1].completed).toBe(true);
  });

  it("deleting a parent deletes its subtasks, each with its own tombstone", async () => {
    const user = await maxUser("subtasks-delete");
    const first = await json(await call("/api/v1/tasks", { token: user.key }));
    const parent = await plan(user.key);
    expect((await call(`/api/v1/tasks/${parent.id}`, { method: "DELETE", token: user.key })).status).toBe(204);
    const ids = [parent.id, parent.subtasks[0].id, parent.subtasks[0].subtasks[0].id, parent.subtasks[1].id];
    for (const id of ids) expect((await get(user.key, id)).status).toBe(404);
    const sync = await json(await call(`/api/v1/tasks?since=${first.meta.serverTime}`, { token: user.key }));
    expect(sync.meta.deleted.map((t: { id: string }) => t.id).sort()).toEqual([...ids].sort());
  });

  it("moving a parent to another list moves its subtasks; a subtask moved alone leaves its parent", async () => {
    const user = await maxUser("subtasks-move-list");
    const parent = await plan(user.key);
    const moved = await json(await move(user.key, parent.id, { listId: "home" }));
    expect(moved.listId).toBe("home");
    const tree = await json(await get(user.key, parent.id, "?subtasks=true"));
    expect(tree.subtasks.map((t: { listId: string }) => t.listId)).toEqual(["home", "home"]);
    expect(tree.subtasks[0].subtasks[0].listId).toBe("home");
    const b = await json(await patch(user.key, parent.subtasks[1].id, { listId: "work" }));
    expect(b.listId).toBe("work");
    expect(b.parentId).toBeUndefined();
  });

  it("a repeating parent's next occurrence gets its subtasks again, open, in order", async () => {
    const user = await maxUser("subtasks-repeat");
    const parent = await plan(user.key, { due: "2026-12-01", repeat: "FREQ=WEEKLY" });
    const res = await patch(user.key, parent.id, { completed: true });
    const nextId = /<[^>]*\/tasks\/([^>]+)>/.exec(res.headers.get("Link") ?? "")?.[1];
    expect(nextId).toBeDefined();
    const next = await json(await get(user.key, nextId!, "?subtasks=true"));
    expect(next.subtasks.map((t: { title: string; completed: boolean }) => [t.title, t.completed])).toEqual([
      ["a", false],
      ["b", false],
    ]);
    expect(next.subtasks[0].subtasks.map((t: { title: string }) => t.title)).toEqual(["a1"]);
    // The old subtasks stay with the completed occurrence, done.
    const old = await json(await get(user.key, parent.id, "?subtasks=true"));
    expect(old.subtasks.every((t: { completed: boolean }) => t.completed)).toBe(true);
  });
});
