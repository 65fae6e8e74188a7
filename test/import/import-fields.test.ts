import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { TODOIST_CSV } from "../support/todoist-csv";

/**
 * Import with issue 34's task fields: subtasks, priority and order come through a round trip and from a
 * Todoist CSV, and a rule of a task's write (five levels) fails the import at its line.
 */

const post = (key: string, body: string, type: string, query = "") =>
  call(`/api/v1/import${query}`, { token: key, body, headers: { "content-type": type } });
const listed = async (key: string, query = "") =>
  (await json(await call(`/api/v1/tasks?sort=position${query}`, { token: key }))).data as any[];

describe("POST /api/v1/import with subtasks, priority and order", { timeout: 30_000 }, () => {
  it("gives back the same tree, priorities and order after export, erase, import", async () => {
    const from = await maxUser("import-tree-from");
    const parent = await createTask(from.key, { title: "Launch", listId: "work", priority: 4 });
    const steps = [];
    for (const title of ["one", "two", "three"])
      steps.push(await createTask(from.key, { title, parentId: parent.id, priority: 2 }));
    // Out of creation order: three, one, two.
    await call(`/api/v1/tasks/${steps[2].id}/move`, { token: from.key, body: { before: steps[0].id } });
    await createTask(from.key, { title: "deep", parentId: steps[0].id });
    const order = async (key: string) =>
      (await listed(key, `&parentId=${parent.id}`)).map((t) => [t.title, t.priority, t.listId, t.parentId]);
    const expected = await order(from.key);
    expect(expected.map(([title]) => title)).toEqual(["three", "one", "two"]);
    const file = await (await call("/account/export", { token: from.session })).text();
    await call("/account", { method: "DELETE", token: from.session, body: { password: from.password } });

    const to = await maxUser("import-tree-to");
    const res = await post(to.key, file, "application/json");
    expect(res.status).toBe(200);
    expect((await json(res)).imported.tasks).toBe(5);
    expect(await order(to.key)).toEqual(expected);
    const tree = await json(await call(`/api/v1/tasks/${parent.id}?subtasks=true`, { token: to.key }));
    expect(tree).toMatchObject({
      title: "Launch",
      priority: 4,
      important: true,
      subtaskCounts: { open: 3, total: 3 },
    });
    expect(tree.subtasks.find((t: any) => t.title === "one").subtasks.map((t: any) => t.title)).toEqual(["deep"]);
  });

  it("makes subtasks from INDENT and priorities from PRIORITY, p1 being 4", async () => {
    const user = await maxUser("import-tree-todoist");
    expect((await post(user.key, TODOIST_CSV, "text/csv", "?list=Launch")).status).toBe(200);
    const byTitle = new Map((await listed(user.key)).map((t) => [t.title, t]));
    const plan = byTitle.get("Plan the launch")!;
    const venue = byTitle.get("Book the venue")!;
    expect(plan).toMatchObject({ priority: 4, important: true });
    expect(plan.parentId).toBeUndefined();
    expect(venue).toMatchObject({ parentId: plan.id, priority: 3, listId: plan.listId });
    expect(byTitle.get("Pay deposit")).toMatchObject({ parentId: venue.id, priority: 1, important: false });
    expect(byTitle.get("Write the recap")).toMatchObject({ priority: 1 });
    expect(byTitle.get("Send Notizen")).toMatchObject({ priority: 2 });
  });

  it("fails at the line of a task whose write breaks a rule (a fifth level), writing nothing", async () => {
    const user = await maxUser("import-tree-deep");
    const chain = ["a", "b", "c", "d", "e"].map((id, i) => ({
      id: `deep-${id}`,
      title: id,
      ...(i > 0 ? { parentId: `deep-${"abcde"[i - 1]}` } : {}),
    }));
    const file = JSON.stringify({ format: "todo-export/2", lists: [], tasks: chain });
    const res = await post(user.key, file, "application/json");
    expect(res.status).toBe(400);
    expect((await json(res)).detail).toMatch(/^Line 5: Invalid parentId: tasks nest at most 4 levels/);
    expect(await listed(user.key)).toEqual([]);
  });
});
