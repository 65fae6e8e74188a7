import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { Task } from "../../src/domain/tasks/schemas";
import { call, json, maxUser } from "../helpers";
import { callError, mcpClient } from "./client";

/**
 * Planning in one call (issue 34 item 7): subtasks, labels, priority and order over MCP, on the
 * domain's verbs. Each group runs once the domain declares its field (src/domain/tasks/fields.ts).
 */
const has = (field: string) => field in Task.shape;

async function setUp() {
  const user = await maxUser();
  return { user, client: await mcpClient(user.key) };
}

async function both(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return { text, data: result.structuredContent as any };
}

const steps = ["Book the venue", "Send invitations", "Order catering", "Plan the agenda", "Book the train"];

describe.runIf(has("parentId"))("create_task with subtasks", () => {
  it("creates a plan of 5 steps in one call, in order, each with its id in the text", async () => {
    const { user, client } = await setUp();
    const { text, data } = await both(client, "create_task", {
      title: "Team offsite",
      due: "2026-12-11",
      listId: "work",
      subtasks: steps.map((title, i) => ({ title, ...(i === 0 ? { due: "2026-12-07" } : {}) })),
    });
    const { task } = data;
    // Under their parent in the tree, subtasks do not repeat its id nor the list they share with it.
    expect(task.subtasks.map((t: any) => [t.title, t.parentId, t.listId])).toEqual(
      steps.map((t) => [t, undefined, undefined]),
    );
    const lines = text.split("\n");
    expect(lines[1]).toMatch(new RegExp(`^- ${task.id} "Team offsite", due 2026-12-11`));
    for (const [i, t] of task.subtasks.entries()) expect(lines[2 + i]).toMatch(new RegExp(`^  - ${t.id} "${t.title}"`));
    const tree = await json(await call(`/api/v1/tasks/${task.id}?subtasks=true`, { token: user.key }));
    expect(tree.subtasks.map((t: any) => [t.title, t.parentId, t.listId])).toEqual(
      steps.map((t) => [t, task.id, task.listId]),
    );
  });

  it("creates nothing when one step is invalid, and names it", async () => {
    const { client } = await setUp();
    const error = await callError(client, "create_task", {
      title: "Plan",
      subtasks: [{ title: "ok" }, { title: "" }],
    });
    expect(error.code).toBe("validation_failed");
    expect(error.line("Fields")).toContain("subtasks.1.title");
    expect((await both(client, "list_tasks")).data.tasks).toEqual([]);
  });

  it("refuses more than 50 subtasks", async () => {
    const { client } = await setUp();
    const subtasks = Array.from({ length: 51 }, (_, i) => ({ title: `step ${i}` }));
    expect((await callError(client, "create_task", { title: "Too big", subtasks })).fields).toContain("subtasks");
  });
});

describe.runIf(has("labels"))("labels", () => {
  it("sets them on create and update, says what changed, and filters by all of them, ignoring case", async () => {
    const { client } = await setUp();
    const a = (await both(client, "create_task", { title: "Call Bob", labels: ["phone", "Work"] })).data.task;
    const b = (await both(client, "create_task", { title: "Buy stamps", labels: ["errand"] })).data.task;
    expect(a.labels).toEqual(["phone", "Work"]);
    const { text, data } = await both(client, "update_task", { id: b.id, labels: ["errand", "PHONE"] });
    expect(data.task.labels).toEqual(["errand", "phone"]);
    expect(text).toMatch(new RegExp(`^Updated \\(labels\\): ${b.id} "Buy stamps", labels "errand" "phone"$`));
    const ids = async (args: Record<string, unknown>) =>
      (await both(client, "list_tasks", args)).data.tasks.map((t: any) => t.id);
    expect(await ids({ labels: ["phone"] })).toEqual([a.id, b.id]);
    expect(await ids({ labels: ["PHONE", "errand"] })).toEqual([b.id]);
    const listed = await both(client, "list_tasks", { labels: ["work"] });
    expect(listed.text).toContain(`- ${a.id} "Call Bob", labels "phone" "Work"`);
    expect((await callError(client, "list_tasks", { labels: [] })).fields).toContain("labels");
  });
});

describe.runIf(has("priority"))("priority", () => {
  it("sets it on create and update, says what changed, filters and sorts by it", async () => {
    const { client } = await setUp();
    const a = (await both(client, "create_task", { title: "Call Bob", priority: 4 })).data.task;
    const b = (await both(client, "create_task", { title: "Buy stamps" })).data.task;
    // Priority 1 (none) is the default, which results leave out.
    expect([a.priority, a.important, b.priority]).toEqual([4, true, undefined]);
    const { text } = await both(client, "update_task", { id: b.id, priority: 2 });
    expect(text).toBe(`Updated (priority): ${b.id} "Buy stamps", priority 2`);
    const ids = async (args: Record<string, unknown>) =>
      (await both(client, "list_tasks", args)).data.tasks.map((t: any) => t.id);
    expect(await ids({ priority: 4 })).toEqual([a.id]);
    expect(await ids({ priority: [2, 4] })).toEqual([a.id, b.id]);
    expect(await ids({ sort: "priority" })).toEqual([a.id, b.id]);
    expect((await callError(client, "list_tasks", { priority: 5 })).fields.join()).toContain("priority");
  });
});

describe.runIf(has("parentId") && has("position"))("parent and order", () => {
  it("moves a task under a parent and places it before a sibling; list_tasks filters by parent", async () => {
    const { client } = await setUp();
    const { task: plan } = (
      await both(client, "create_task", { title: "Plan", subtasks: [{ title: "one" }, { title: "two" }] })
    ).data;
    const loose = (await both(client, "create_task", { title: "zero" })).data.task;
    const { text, data } = await both(client, "update_task", {
      id: loose.id,
      parentId: plan.id,
      before: plan.subtasks[0].id,
    });
    expect(data.task.parentId).toBe(plan.id);
    expect(text).toMatch(/^Updated \(parentId, before\): /);
    const children = await both(client, "list_tasks", { parentId: plan.id, sort: "position" });
    expect(children.data.tasks.map((t: any) => t.title)).toEqual(["zero", "one", "two"]);
    expect(children.text).toContain(`subtask of ${plan.id}`);
    const top = await both(client, "list_tasks", { parentId: "" });
    expect(top.data.tasks.map((t: any) => t.id)).toEqual([plan.id]);
    expect(top.text).toMatch(/"Plan", 3\/3 subtasks open/);
  });
});

describe.runIf(has("priority"))("a list nobody named before", () => {
  it("resolves a list's name written differently, and says so when a write makes a new list", async () => {
    const { user, client } = await setUp();
    await call("/api/v1/lists", { method: "POST", token: user.key, body: { name: "Weekly shop" } });
    const same = await both(client, "create_task", { title: "Milk", listId: "weekly_shop" });
    expect(same.text).not.toContain("new list");
    const created = await both(client, "create_task", { title: "Eggs", listId: "Weekly-shopping" });
    expect(created.text).toMatch(
      /Created a new list "Weekly-shopping"\. Did you mean Weekly shop\? Move it with update_task\./,
    );
  });
});
