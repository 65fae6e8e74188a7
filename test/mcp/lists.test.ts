import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callOk, mcpClient } from "./client";

type User = Awaited<ReturnType<typeof maxUser>>;

const restLists = async (user: User) => (await json(await call("/api/v1/lists", { token: user.key }))).data;

describe("lists over MCP", () => {
  it("lets an agent go from a list's name to its tasks and add to it", async () => {
    const user = await maxUser("mcp-lists");
    const groceries = await json(await call("/api/v1/lists", { token: user.key, body: { name: "Groceries" } }));
    await createTask(user.key, { title: "bread", listId: groceries.id });
    await createTask(user.key, { title: "call mum" });
    const client = await mcpClient(user.key);

    // "Add milk to my Groceries list": the agent finds the list's id by its name…
    const first = await callOk(client, "list_tasks", { lists: true });
    expect(first.lists).toEqual([{ id: groceries.id, name: "Groceries" }]);
    const listId = first.lists.find((l: { name: string }) => l.name.toLowerCase() === "groceries").id;
    // …reads what is on it, and adds to it.
    const onList = await callOk(client, "list_tasks", { listId });
    expect(onList.tasks.map((t: { title: string }) => t.title)).toEqual(["bread"]);
    expect(onList).not.toHaveProperty("lists");
    const { task } = await callOk(client, "create_task", { title: "milk", listId });
    expect(task.listId).toBe(groceries.id);
    expect(await restLists(user)).toMatchObject([{ id: groceries.id, openCount: 2, taskCount: 2 }]);

    // A listId that names no list creates one, which the next call shows.
    await callOk(client, "create_task", { title: "screws", listId: "hardware" });
    const again = await callOk(client, "list_tasks", { lists: true, limit: 1 });
    expect(again.lists).toEqual([
      { id: groceries.id, name: "Groceries" },
      { id: "hardware", name: "hardware" },
    ]);
    await client.close();
  });

  it("shows and changes only the caller's own lists", async () => {
    const owner = await maxUser("mcp-lists-owner");
    const other = await maxUser("mcp-lists-other");
    const secret = await json(await call("/api/v1/lists", { token: owner.key, body: { name: "Secret plans" } }));
    await createTask(owner.key, { title: "hidden", listId: secret.id });
    const client = await mcpClient(other.key);

    expect((await callOk(client, "list_tasks", { lists: true })).lists).toEqual([]);
    expect((await callOk(client, "list_tasks", { listId: secret.id })).tasks).toEqual([]);
    // The same id is a list of the caller's own account, created for it; the owner's is untouched.
    await callOk(client, "create_task", { title: "mine", listId: secret.id });
    expect((await callOk(client, "list_tasks", { lists: true })).lists).toEqual([{ id: secret.id, name: secret.id }]);
    expect(await restLists(owner)).toMatchObject([{ id: secret.id, name: "Secret plans", taskCount: 1 }]);
    await client.close();
  });
});
