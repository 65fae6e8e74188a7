import { describe, expect, it } from "vitest";
import { callOk, mcpClient } from "../mcp/client";
import { call, createTask, json, maxUser } from "../helpers";

/** Issue 34: lists never appear silently. Names match loosely; a list a write still creates is announced. */

async function withLists(label: string, ...names: string[]) {
  const user = await maxUser(label);
  const ids: Record<string, string> = {};
  for (const name of names)
    ids[name] = (await json(await call("/api/v1/lists", { token: user.key, body: { name } }))).id;
  return { user, ids };
}

describe("a listId that is a list's name, loosely", () => {
  it("resolves ignoring case, spaces, dashes and underscores, and creates no list", async () => {
    const { user, ids } = await withLists("names-loose", "Weekly shop");
    for (const spelling of ["Weekly-shop", "weekly_shop", "WEEKLY SHOP", "weeklyshop"]) {
      const res = await call("/api/v1/tasks", { token: user.key, body: { title: spelling, listId: spelling } });
      expect(res.headers.get("List-Created")).toBeNull();
      expect((await json(res)).listId).toBe(ids["Weekly shop"]);
    }
    const lists = await json(await call("/api/v1/lists", { token: user.key }));
    expect(lists.data).toHaveLength(1);
  });
});

describe("a write that still creates a list", () => {
  it("says so on REST: the List-Created header and notice, naming the closest lists", async () => {
    const { user } = await withLists("names-notice", "Groceries", "Work");
    const res = await call("/api/v1/tasks", { token: user.key, body: { title: "milk", listId: "grocery" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("List-Created")).toBe("grocery");
    const body = await json(res);
    expect(body.notice.listCreated).toMatchObject({ id: "grocery", name: "grocery", closest: ["Groceries"] });
    // A second write to the same list creates nothing and says nothing.
    const again = await call("/api/v1/tasks", { token: user.key, body: { title: "eggs", listId: "grocery" } });
    expect(again.headers.get("List-Created")).toBeNull();
    expect((await json(again)).notice).toBeUndefined();
    // An update that moves a task to a new list says so too.
    const moved = await call(`/api/v1/tasks/${body.id}`, { method: "PATCH", token: user.key, body: { listId: "wrk" } });
    expect(moved.headers.get("List-Created")).toBe("wrk");
    expect((await json(moved)).notice.listCreated.closest).toEqual(["Work"]);
  });

  it("says so on MCP, in create_task's result: the new list and the closest names", async () => {
    const { user } = await withLists("names-mcp", "Groceries");
    const client = await mcpClient(user.key);
    const result = await client.callTool({ name: "create_task", arguments: { title: "milk", listId: "grocery" } });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
    expect(text).toContain('Created a new list "grocery". Did you mean Groceries? Move it with update_task.');
    const quiet = await callOk(client, "create_task", { title: "eggs", listId: "Groceries" });
    expect(quiet.notice).toBeUndefined();
  });

  it("a listing filtered by an unknown listId keeps 200 and empty data, with meta.hint", async () => {
    const { user } = await withLists("names-hint", "Groceries");
    await createTask(user.key, { title: "milk", listId: "Groceries" });
    const res = await call("/api/v1/tasks?listId=grocerys", { token: user.key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data).toEqual([]);
    expect(body.meta.hint).toMatch(/No list has this listId/);
    expect(body.meta.hint).toContain('"Groceries"');
    const known = await json(await call("/api/v1/tasks?listId=groceries", { token: user.key }));
    expect(known.meta.hint).toBeUndefined();
  });
});
