import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { maxUser } from "../helpers";
import { mcpClient } from "./client";

/**
 * Results come once (issue 34 item 7): the text block is a compact rendering for models, not the
 * structured content again, and a host that shows the model only text loses nothing it needs to go on.
 */

async function maxClient() {
  return mcpClient((await maxUser()).key);
}

/** A successful call's text and structured content. */
async function both(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return { text, data: result.structuredContent as any };
}

/** Every line of a text that names a task also names its id and its title, quoted. */
function expectTaskIn(text: string, task: { id: string; title: string; due?: string }) {
  const line = text.split("\n").find((l) => l.includes(task.id));
  expect(line, `${task.id} in:\n${text}`).toBeDefined();
  expect(line).toContain(JSON.stringify(task.title));
  if (task.due) expect(line).toContain(`due ${task.due}`);
}

describe("result text", () => {
  it("is not the structured content serialised, and costs far less", async () => {
    const client = await maxClient();
    const { text, data } = await both(client, "create_task", {
      title: "Buy milk",
      due: "2026-12-01",
      listId: "Groceries",
    });
    expect(() => JSON.parse(text)).toThrow();
    const [head, line] = text.split("\n");
    expect([head, line]).toEqual([
      "Created:",
      `- ${data.task.id} "Buy milk", due 2026-12-01, list "${data.task.listId}"`,
    ]);
  });

  it("drops what only sync needs from the structured content of every task tool", async () => {
    const client = await maxClient();
    const { data: created } = await both(client, "create_task", {
      title: "r",
      due: "2026-12-01",
      repeat: "FREQ=DAILY",
    });
    const results = [
      created,
      (await both(client, "update_task", { id: created.task.id, notes: "x" })).data,
      (await both(client, "complete_task", { id: created.task.id })).data,
      (await both(client, "list_tasks")).data,
    ];
    const json = JSON.stringify(results);
    expect(json).not.toContain("updatedAt");
    expect(json).not.toContain('"position"');
    expect(results[2].next.due).toBe("2026-12-02");
  });

  it("says what an update changed and what it cleared", async () => {
    const client = await maxClient();
    const { data } = await both(client, "create_task", { title: "Draft", due: "2026-12-24", notes: "n" });
    const { text } = await both(client, "update_task", { id: data.task.id, title: "Final", due: "", notes: "" });
    expect(text).toMatch(/^Updated \(title, due cleared, notes cleared\): /);
    expectTaskIn(text, { id: data.task.id, title: "Final" });
    expect(text).not.toContain("due 2026-12-24");
    expect((await both(client, "update_task", { id: data.task.id })).text).toMatch(/^Updated \(nothing changed\)/);
  });

  it("names the next occurrence of a completed repeating task, with its id and date", async () => {
    const client = await maxClient();
    const { data } = await both(client, "create_task", { title: "Water", due: "2026-12-01", repeat: "FREQ=WEEKLY" });
    const { text, data: done } = await both(client, "complete_task", { id: data.task.id });
    const [first, second] = text.split("\n");
    expect(first).toBe(`Completed: ${data.task.id} "Water", due 2026-12-01, done`);
    expect(second).toBe(`Next occurrence: ${done.next.id} "Water", due 2026-12-08, repeats FREQ=WEEKLY`);
  });

  it("says a replay created nothing new", async () => {
    const client = await maxClient();
    const args = { title: "Once", clientRequestId: crypto.randomUUID() };
    await both(client, "create_task", args);
    expect((await both(client, "create_task", args)).text).toMatch(/^Already created \(same clientRequestId\)/);
  });

  it("names a deletion's id", async () => {
    const client = await maxClient();
    const { data } = await both(client, "create_task", { title: "Gone" });
    expect((await both(client, "delete_task", { id: data.task.id })).text).toBe(`Deleted ${data.task.id}.`);
  });

  it("lists every task with its id, title, due date and notes, the clock, the lists, paging and hints", async () => {
    const client = await maxClient();
    const a = (await both(client, "create_task", { title: 'Say "hi"', due: "2026-12-03", notes: "line 1\nline 2" }))
      .data.task;
    const b = (await both(client, "create_task", { title: "Milk", listId: "Groceries", important: true })).data.task;
    const { text, data } = await both(client, "list_tasks", { lists: true, limit: 1 });
    expect(text.split("\n")[0]).toBe(`1 task; today ${data.today} (${data.timeZone}), serverTime ${data.serverTime}`);
    expectTaskIn(text, { ...a, due: "2026-12-03" });
    expect(text).toContain('notes "line 1\\nline 2"');
    expect(text).toContain(`More: cursor ${JSON.stringify(data.nextCursor)}`);
    expect(text).toContain(`Lists (id name): ${b.listId} "Groceries"`);
    const rest = await both(client, "list_tasks", { cursor: data.nextCursor });
    expectTaskIn(rest.text, b);
    expect(rest.text).toMatch(/"Milk", list "[^"]+", (important|priority 3|priority 4)/);
    const unknown = await both(client, "list_tasks", { listId: "no-such-list" });
    expect(unknown.text).toMatch(/^0 tasks; .*\nHint: No list has this listId/);
  });

  it("says when a listed task was done", async () => {
    const client = await maxClient();
    const { data } = await both(client, "create_task", { title: "Done" });
    await both(client, "complete_task", { id: data.task.id });
    const { text, data: page } = await both(client, "list_tasks", { completed: true });
    expect(text).toContain(`- ${data.task.id} "Done", done ${page.tasks[0].completedAt}`);
  });

  it("lists the deletions of a sync", async () => {
    const client = await maxClient();
    const { data } = await both(client, "create_task", { title: "Gone" });
    const { data: page } = await both(client, "list_tasks");
    await both(client, "delete_task", { id: data.task.id });
    expect((await both(client, "list_tasks", { since: page.serverTime })).text).toContain(
      `Deleted since: ${data.task.id}`,
    );
  });

  it("lists packs with the id to pass on and the feed, and holidays with whether they are days off", async () => {
    const client = await maxClient();
    const packs = await both(client, "list_calendar_packs", { query: "Bavaria" });
    const pack = packs.data.packs.find((p: { id: string }) => p.id === "de-by");
    expect(packs.text).toContain(`- de-by ${pack.name}, ${pack.years.from}-${pack.years.to}, ${pack.icsUrl}`);
    const holidays = await both(client, "list_holidays", { pack: "de-by", from: "2026-12-24", to: "2026-12-26" });
    const lines = holidays.text.split("\n");
    expect(lines[0]).toBe(`${pack.name} (de-by), 2026-12-24 to 2026-12-26: ${holidays.data.count} holidays`);
    for (const e of holidays.data.events)
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^- ${e.date} ${e.name}.*, ${e.type}, ${e.dayOff ? "day off" : "working day"}$`),
        ),
      );
    expect(lines.at(-1)).toBe(`Data: ${holidays.data.attribution}`);
  });
});
