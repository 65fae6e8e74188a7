import { describe, expect, it } from "vitest";
import { accountSql, call, createTask, json, maxUser } from "../helpers";

/** Issue 34: priority (and how it keeps `important`), manual order and moves, sorts; over REST, real object. */

const patch = (key: string, id: string, body: unknown) =>
  call(`/api/v1/tasks/${id}`, { method: "PATCH", token: key, body });
const titles = (body: { data: { title: string }[] }) => body.data.map((t) => t.title);
const list = async (key: string, query: string) => json(await call(`/api/v1/tasks?${query}`, { token: key }));

describe("priority", () => {
  it("keeps important ⇔ priority >= 3 both ways, and refuses the two when they disagree", async () => {
    const user = await maxUser("priority-rule");
    expect(await createTask(user.key, { title: "p", priority: 4 })).toMatchObject({ priority: 4, important: true });
    expect(await createTask(user.key, { title: "i", important: true })).toMatchObject({ priority: 3, important: true });
    const plain = await createTask(user.key, { title: "plain" });
    expect(plain).toMatchObject({ priority: 1, important: false });
    expect(await json(await patch(user.key, plain.id, { priority: 2 }))).toMatchObject({
      priority: 2,
      important: false,
    });
    expect(await json(await patch(user.key, plain.id, { important: true }))).toMatchObject({
      priority: 3,
      important: true,
    });
    expect(await json(await patch(user.key, plain.id, { priority: 4 }))).toMatchObject({
      priority: 4,
      important: true,
    });
    expect(await json(await patch(user.key, plain.id, { important: false }))).toMatchObject({
      priority: 2,
      important: false,
    });
    const both = await patch(user.key, plain.id, { priority: 4, important: false });
    expect(both.status).toBe(400);
    expect((await json(both)).detail).toMatch(/important means priority 3 or 4/);
    expect((await patch(user.key, plain.id, { priority: 5 })).status).toBe(400);
  });

  it("filters by one priority or several, and sorts by priority, highest first", async () => {
    const user = await maxUser("priority-filter");
    for (const [title, priority] of [
      ["low", 2],
      ["urgent", 4],
      ["none", 1],
      ["high", 3],
    ] as const)
      await createTask(user.key, { title, priority });
    expect(titles(await list(user.key, "priority=4"))).toEqual(["urgent"]);
    expect(titles(await list(user.key, "priority=3,4&sort=priority"))).toEqual(["urgent", "high"]);
    expect(titles(await list(user.key, "sort=priority"))).toEqual(["urgent", "high", "low", "none"]);
    expect((await call("/api/v1/tasks?priority=5", { token: user.key })).status).toBe(400);
  });
});

describe("manual order", () => {
  it("puts new tasks last, moves one before or after another by writing its row alone, and lists by position", async () => {
    const user = await maxUser("order-move");
    const [a, b, c] = [
      await createTask(user.key, { title: "a", listId: "home" }),
      await createTask(user.key, { title: "b", listId: "home" }),
      await createTask(user.key, { title: "c", listId: "home" }),
    ];
    expect(titles(await list(user.key, "listId=home&sort=position"))).toEqual(["a", "b", "c"]);
    const before = await accountSql<{ id: string; updated_at: string }>(
      user.accountId,
      "SELECT id, updated_at FROM tasks",
    );
    const moved = await call(`/api/v1/tasks/${c.id}/move`, { token: user.key, body: { before: a.id } });
    expect(moved.status).toBe(200);
    expect(titles(await list(user.key, "listId=home&sort=position"))).toEqual(["c", "a", "b"]);
    const after = await accountSql<{ id: string; updated_at: string }>(
      user.accountId,
      "SELECT id, updated_at FROM tasks",
    );
    const changed = after.filter((row) => before.find((old) => old.id === row.id)?.updated_at !== row.updated_at);
    expect(changed.map((row) => row.id)).toEqual([c.id]);
    // PATCH takes the same placement.
    await patch(user.key, a.id, { after: b.id });
    expect(titles(await list(user.key, "listId=home&sort=position"))).toEqual(["c", "b", "a"]);
    // Under another task: its subtasks follow it in a listing by position.
    await call(`/api/v1/tasks/${a.id}/move`, { token: user.key, body: { parentId: c.id } });
    expect(titles(await list(user.key, "listId=home&sort=position"))).toEqual(["c", "a", "b"]);
    const both = await call(`/api/v1/tasks/${a.id}/move`, { token: user.key, body: { before: b.id, after: c.id } });
    expect(both.status).toBe(400);
    const self = await call(`/api/v1/tasks/${a.id}/move`, { token: user.key, body: { before: a.id } });
    expect(self.status).toBe(400);
  });

  it("sorts by due, undated last, and pages a sorted listing without skipping or repeating", async () => {
    const user = await maxUser("order-due");
    await createTask(user.key, { title: "none" });
    await createTask(user.key, { title: "late", due: "2026-12-24" });
    await createTask(user.key, { title: "soon", due: "2026-12-01T09:00:00+01:00" });
    await createTask(user.key, { title: "mid", due: "2026-12-10" });
    expect(titles(await list(user.key, "sort=due"))).toEqual(["soon", "mid", "late", "none"]);
    const first = await list(user.key, "sort=due&limit=3");
    const second = await list(user.key, `sort=due&limit=3&cursor=${first.meta.nextCursor}`);
    expect([...titles(first), ...titles(second)]).toEqual(["soon", "mid", "late", "none"]);
    expect(second.meta.nextCursor).toBeUndefined();
  });
});
