import type { Client } from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { describe, expect, it } from "vitest";
import { call, createKey, createTask, json, maxUser, signUp } from "../helpers";
import { callError, callOk, mcpClient, withoutSync } from "./client";

async function maxClient() {
  const user = await maxUser();
  return { user, client: await mcpClient(user.key) };
}

/** The error of a tool result that must be an error, with no stack trace in it. */
async function toolError(client: Client, name: string, args: Record<string, unknown>) {
  const error = await callError(client, name, args);
  expect(error.text).not.toMatch(/\n\s+at /);
  return { error, text: error.text };
}

describe("create_task", () => {
  it("creates a task and returns it as structured content, and as a compact line of text", async () => {
    const { client } = await maxClient();
    const result = await client.callTool({
      name: "create_task",
      arguments: {
        title: "Renew passport",
        notes: "Two photos",
        due: "2026-12-24",
        reminder: "2026-12-23T08:00:00Z",
        repeat: "FREQ=YEARLY",
        listId: "errands",
        important: true,
      },
    });
    expect(result.isError).toBeFalsy();
    const { task } = result.structuredContent as any;
    expect(task).toMatchObject({
      title: "Renew passport",
      notes: "Two photos",
      due: "2026-12-24",
      listId: "errands",
      important: true,
    });
    // Open is the default, left out (docs/mcp.md); so are the sync-only fields.
    expect(task).not.toHaveProperty("completed");
    expect(task).not.toHaveProperty("updatedAt");
    const text = (result.content as any)[0].text as string;
    for (const fact of [task.id, '"Renew passport"', "due 2026-12-24", 'list "errands"', "repeats FREQ=YEARLY"])
      expect(text).toContain(fact);
    expect(text).toContain("2026-12-23T08:00:00Z");
    // Results come once: the text is not the structured content again.
    expect(text).not.toContain('"task"');
    expect(text.length).toBeLessThan(JSON.stringify(result.structuredContent).length);
  });

  it("is visible over REST at once", async () => {
    const { user, client } = await maxClient();
    const { task } = await callOk(client, "create_task", { title: "From MCP" });
    const response = await call(`/api/v1/tasks/${task.id}`, { token: user.key });
    expect(response.status).toBe(200);
    expect(withoutSync(await json(response))).toEqual(task);
  });

  it.each([
    ["a title over 500 characters", { title: "x".repeat(501) }, "title"],
    ["a blank title", { title: "   " }, "title"],
    ["no title", { notes: "n" }, "title"],
    ["notes over 20000 characters", { title: "t", notes: "n".repeat(20001) }, "notes"],
    ["a due that is not a date", { title: "t", due: "next friday" }, "due"],
    ["a reminder without offset", { title: "t", reminder: "2026-12-24T08:00:00" }, "reminder"],
    ["an invalid repeat rule", { title: "t", repeat: "FREQ=HOURLY" }, "repeat"],
    ["a title that is not a string", { title: 42 }, "title"],
  ])("refuses %s with a tool error naming the field", async (_, args, field) => {
    const { client } = await maxClient();
    const { error, text } = await toolError(client, "create_task", args);
    expect(error.code).toBe("validation_failed");
    expect(error.fields).toContain(field);
    expect(text).toContain(field);
  });

  it("refuses properties the REST body refuses too", async () => {
    const { client } = await maxClient();
    const { error } = await toolError(client, "create_task", { title: "t", completed: true });
    expect(error.code).toBe("validation_failed");
    expect(error.line("Fields")).toContain("completed");
  });

  it("creates one task for two calls with the same clientRequestId, and returns the first", async () => {
    const { user, client } = await maxClient();
    const args = { title: "Pay rent", clientRequestId: crypto.randomUUID() };
    const first = await callOk(client, "create_task", args);
    const retry = await callOk(client, "create_task", args);
    expect(retry.task).toEqual(first.task);
    expect([first.replayed, retry.replayed]).toEqual([undefined, true]);
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).data).toHaveLength(1);
  });

  it("refuses a clientRequestId reused for different fields", async () => {
    const { client } = await maxClient();
    const clientRequestId = crypto.randomUUID();
    await callOk(client, "create_task", { title: "one", clientRequestId });
    const { error } = await toolError(client, "create_task", { title: "two", clientRequestId });
    expect(error.code).toBe("idempotency_key_reused");
  });

  it("counts the 500-character limit in code points, as REST does", async () => {
    const { client } = await maxClient();
    const { task } = await callOk(client, "create_task", { title: "😀".repeat(500) });
    expect([...task.title]).toHaveLength(500);
  });
});

describe("list_tasks", () => {
  it("lists tasks created over REST, with count and serverTime", async () => {
    const { user, client } = await maxClient();
    const created = await createTask(user.key, { title: "From REST" });
    const page = await callOk(client, "list_tasks");
    expect(page.tasks).toEqual([withoutSync(created)]);
    expect(page.count).toBe(1);
    expect(Date.parse(page.serverTime)).not.toBeNaN();
    expect(page.nextCursor).toBeUndefined();
    expect(page.deleted).toBeUndefined();
  });

  it("tells the account's time zone and today's date in it, for relative dates", async () => {
    const { user, client } = await maxClient();
    await call("/account", { method: "PATCH", token: user.session, body: { timeZone: "Pacific/Kiritimati" } });
    const page = await callOk(client, "list_tasks");
    expect(page.timeZone).toBe("Pacific/Kiritimati");
    // UTC+14: its date is the UTC date of serverTime plus 14 hours.
    const expected = new Date(Date.parse(page.serverTime) + 14 * 3_600_000).toISOString().slice(0, 10);
    expect(page.today).toBe(expected);
  });

  it("filters by completed and listId", async () => {
    const { user, client } = await maxClient();
    const open = await createTask(user.key, { title: "open", listId: "home" });
    const done = await createTask(user.key, { title: "done", listId: "work" });
    await call(`/api/v1/tasks/${done.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    expect((await callOk(client, "list_tasks", { completed: false })).tasks.map((t: any) => t.id)).toEqual([open.id]);
    expect((await callOk(client, "list_tasks", { completed: true })).tasks.map((t: any) => t.id)).toEqual([done.id]);
    expect((await callOk(client, "list_tasks", { listId: "home" })).tasks.map((t: any) => t.id)).toEqual([open.id]);
  });

  it("pages with limit and nextCursor", async () => {
    const { user, client } = await maxClient();
    const ids: string[] = [];
    for (const title of ["a", "b", "c"]) ids.push((await createTask(user.key, { title })).id);
    const first = await callOk(client, "list_tasks", { limit: 2 });
    expect(first.count).toBe(2);
    expect(first.nextCursor).toBeTruthy();
    const second = await callOk(client, "list_tasks", { limit: 2, cursor: first.nextCursor });
    expect([...first.tasks, ...second.tasks].map((t: any) => t.id)).toEqual(ids);
    expect(second.nextCursor).toBeUndefined();
  });

  it("returns changes and deletions since a serverTime", async () => {
    const { user, client } = await maxClient();
    const old = await createTask(user.key, { title: "old" });
    const gone = await createTask(user.key, { title: "gone" });
    const { serverTime } = await callOk(client, "list_tasks");
    await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
    const fresh = await createTask(user.key, { title: "fresh" });
    const delta = await callOk(client, "list_tasks", { since: serverTime });
    expect(delta.tasks.map((t: any) => t.id)).toEqual([fresh.id]);
    expect(delta.tasks.map((t: any) => t.id)).not.toContain(old.id);
    expect(delta.deleted.map((d: any) => d.id)).toEqual([gone.id]);
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 201 }, "limit"],
    [{ since: "yesterday" }, "since"],
    [{ cursor: "not-a-cursor" }, "cursor"],
    [{ completed: "yes" }, "completed"],
  ])("refuses %j with a tool error naming the field", async (args, field) => {
    const { client } = await maxClient();
    const { error } = await toolError(client, "list_tasks", args);
    expect(error.code).toBe("validation_failed");
    expect(error.fields).toContain(field);
  });

  it("never shows another account's tasks", async () => {
    const a = await maxClient();
    const b = await maxClient();
    await callOk(a.client, "create_task", { title: "A's secret" });
    expect((await callOk(b.client, "list_tasks")).tasks).toEqual([]);
  });
});

describe("complete_task", () => {
  it("completes a task, and REST sees it completed", async () => {
    const { user, client } = await maxClient();
    const created = await createTask(user.key, { title: "to do" });
    const { task } = await callOk(client, "complete_task", { id: created.id });
    expect(task.completed).toBe(true);
    const rest = await json(await call(`/api/v1/tasks/${created.id}`, { token: user.key }));
    expect(rest.updatedAt > created.updatedAt).toBe(true);
    expect(rest.completed).toBe(true);
    expect(withoutSync(rest)).toEqual(task);
  });

  it("returns an already completed task unchanged", async () => {
    const { client } = await maxClient();
    const { task: created } = await callOk(client, "create_task", { title: "twice" });
    const first = await callOk(client, "complete_task", { id: created.id });
    const second = await callOk(client, "complete_task", { id: created.id });
    expect(second.task).toEqual(first.task);
    // The model can tell a retry from a first completion (issue 35, item 21).
    expect(first).not.toHaveProperty("hint");
    expect(second.hint).toMatch(/already completed/);
    const result = await client.callTool({ name: "complete_task", arguments: { id: created.id } });
    expect(JSON.stringify(result.content)).toMatch(/already completed/);
  });

  it("returns the next occurrence of a repeating task as `next`, and only for repeating tasks", async () => {
    const { client } = await maxClient();
    const { task: weekly } = await callOk(client, "create_task", {
      title: "Gym",
      due: "2026-11-23",
      repeat: "FREQ=WEEKLY;BYDAY=MO",
    });
    const done = await callOk(client, "complete_task", { id: weekly.id });
    expect(done.task.completed).toBe(true);
    expect(done.next).not.toHaveProperty("completed");
    expect(done.next).toMatchObject({
      title: "Gym",
      due: "2026-11-30",
      repeat: "FREQ=WEEKLY;BYDAY=MO",
    });
    expect(done.next.id).not.toBe(weekly.id);
    const { task: once } = await callOk(client, "create_task", { title: "Once" });
    expect(await callOk(client, "complete_task", { id: once.id })).not.toHaveProperty("next");
  });

  it("returns the same `next` when a completion is retried, and creates no second occurrence", async () => {
    const { user, client } = await maxClient();
    const { task } = await callOk(client, "create_task", { title: "Daily", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const first = await callOk(client, "complete_task", { id: task.id });
    const retry = await callOk(client, "complete_task", { id: task.id });
    expect(retry).toEqual({ ...first, hint: expect.stringMatching(/already completed/) });
    expect(first.next.due).toBe("2026-06-02");
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).data).toHaveLength(2);
  });

  it("reports an unknown id as task_not_found", async () => {
    const { client } = await maxClient();
    const { error, text } = await toolError(client, "complete_task", { id: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f" });
    expect(error.code).toBe("task_not_found");
    expect(text).toContain("task_not_found");
  });

  it("reports another account's task as not found and leaves it open", async () => {
    const owner = await maxClient();
    const other = await maxClient();
    const { task } = await callOk(owner.client, "create_task", { title: "mine" });
    const { error } = await toolError(other.client, "complete_task", { id: task.id });
    expect(error.code).toBe("task_not_found");
    expect((await json(await call(`/api/v1/tasks/${task.id}`, { token: owner.user.key }))).completed).toBe(false);
  });

  it("refuses a missing id with a tool error naming it", async () => {
    const { client } = await maxClient();
    const { error } = await toolError(client, "complete_task", {});
    expect(error.fields).toContain("id");
  });
});

describe("task tools without Max", () => {
  it.each([
    ["list_tasks", {}],
    ["create_task", { title: "t" }],
    ["complete_task", { id: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f" }],
    ["update_task", { id: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f", title: "t" }],
    ["delete_task", { id: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e0f" }],
  ])("%s answers max_required and says where to upgrade", async (name, args) => {
    const account = await signUp("free");
    const { key } = await createKey(account.session);
    const client = await mcpClient(key);
    const { error, text } = await toolError(client, name, args);
    expect(error.code).toBe("max_required");
    expect(error.line("Upgrade")).toBe("http://example.com/#billing");
    expect(text).toContain("max_required");
  });

  it("creates nothing for a caller without Max", async () => {
    const account = await signUp("free");
    const { key } = await createKey(account.session);
    await toolError(await mcpClient(key), "create_task", { title: "should not exist" });
    const { results } = await (await import("cloudflare:workers")).env.DB.prepare(
      "SELECT count(*) AS n FROM tasks WHERE account_id = ?",
    )
      .bind(account.accountId)
      .all<{ n: number }>();
    expect(results[0]!.n).toBe(0);
  });
});

describe("structured results", () => {
  it("validate against each tool's advertised outputSchema", async () => {
    const { client } = await maxClient();
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    const validator = new CfWorkerJsonSchemaValidator();
    const { serverTime } = await callOk(client, "list_tasks");
    const created = await callOk(client, "create_task", { title: "validate me", due: "2026-12-24T09:00:00+01:00" });
    const results: [string, unknown][] = [
      ["create_task", created],
      ["list_tasks", await callOk(client, "list_tasks", { limit: 1 })],
      ["list_tasks", await callOk(client, "list_tasks", { since: serverTime })],
      ["complete_task", await callOk(client, "complete_task", { id: created.task.id })],
      [
        "complete_task",
        await callOk(client, "complete_task", {
          id: (await callOk(client, "create_task", { title: "r", due: "2026-12-01", repeat: "FREQ=DAILY" })).task.id,
        }),
      ],
      ["list_calendar_packs", await callOk(client, "list_calendar_packs", { country: "DE" })],
      ["list_calendar_packs", await callOk(client, "list_calendar_packs", { query: "nowhere" })],
      ["list_holidays", await callOk(client, "list_holidays", { pack: "de-by" })],
      ["update_task", await callOk(client, "update_task", { id: created.task.id, title: "renamed" })],
      ["delete_task", await callOk(client, "delete_task", { id: created.task.id })],
      ["create_task", await callOk(client, "create_task", { title: "again", clientRequestId: "same" })],
      ["create_task", await callOk(client, "create_task", { title: "again", clientRequestId: "same" })],
    ];
    for (const [name, content] of results) {
      const check = validator.getValidator(schemaOf(name) as any)(content);
      expect(check.valid, `${name}: ${JSON.stringify(check)}`).toBe(true);
    }
    // The check can fail: a task without its id does not validate.
    const broken = { task: { ...created.task, id: undefined } };
    expect(validator.getValidator(schemaOf("create_task") as any)(JSON.parse(JSON.stringify(broken))).valid).toBe(
      false,
    );
  });
});

describe("update_task", () => {
  it('changes the fields sent, clears with "" and null, and REST sees the change', async () => {
    const { user, client } = await maxClient();
    const { task } = await callOk(client, "create_task", {
      title: "Draft",
      notes: "n",
      due: "2026-12-24",
      reminder: "2026-12-23T08:00:00Z",
      listId: "home",
    });
    const before = await json(await call(`/api/v1/tasks/${task.id}`, { token: user.key }));
    const { task: updated } = await callOk(client, "update_task", {
      id: task.id,
      title: "Final",
      notes: "",
      reminder: null,
      listId: "work",
      important: true,
    });
    expect(updated).toMatchObject({ id: task.id, title: "Final", due: "2026-12-24", listId: "work", important: true });
    expect(updated).not.toHaveProperty("notes");
    expect(updated).not.toHaveProperty("reminder");
    const rest = await json(await call(`/api/v1/tasks/${task.id}`, { token: user.key }));
    expect(rest.updatedAt > before.updatedAt).toBe(true);
    expect(withoutSync(rest)).toEqual(updated);
  });

  it("completes a repeating task with `next`, and reopens with completed: false", async () => {
    const { client } = await maxClient();
    const { task } = await callOk(client, "create_task", { title: "Weekly", due: "2026-11-23", repeat: "FREQ=WEEKLY" });
    const done = await callOk(client, "update_task", { id: task.id, completed: true });
    expect(done.next).toMatchObject({ title: "Weekly", due: "2026-11-30" });
    expect(done.next).not.toHaveProperty("completed");
    expect(done.task.completed).toBe(true);
    // Reopened: open is the default, which results leave out.
    expect((await callOk(client, "update_task", { id: task.id, completed: false })).task).not.toHaveProperty(
      "completed",
    );
  });

  it.each([
    [{ id: "x", title: "" }, "title"],
    [{ id: "x", due: "tomorrow" }, "due"],
    [{ id: "x", repeat: "FREQ=HOURLY" }, "repeat"],
    [{ id: "x", owner: "me" }, ""],
    [{ title: "no id" }, "id"],
  ])("refuses %j with a tool error naming the field", async (args, field) => {
    const { client } = await maxClient();
    const { error } = await toolError(client, "update_task", args);
    expect(error.code).toBe("validation_failed");
    expect(error.line("Fields")).toContain(field || "owner");
  });

  it("reports another account's task as not found and leaves it unchanged", async () => {
    const owner = await maxClient();
    const other = await maxClient();
    const { task } = await callOk(owner.client, "create_task", { title: "mine" });
    const { error } = await toolError(other.client, "update_task", { id: task.id, title: "stolen" });
    expect(error.code).toBe("task_not_found");
    expect((await json(await call(`/api/v1/tasks/${task.id}`, { token: owner.user.key }))).title).toBe("mine");
  });
});

describe("delete_task", () => {
  it("deletes a task, which a since sync then reports as deleted, like a REST DELETE", async () => {
    const { user, client } = await maxClient();
    const { task } = await callOk(client, "create_task", { title: "Cancel me" });
    const { serverTime } = await callOk(client, "list_tasks");
    expect(await callOk(client, "delete_task", { id: task.id })).toEqual({ id: task.id, deleted: true });
    expect((await call(`/api/v1/tasks/${task.id}`, { token: user.key })).status).toBe(404);
    const delta = await callOk(client, "list_tasks", { since: serverTime });
    expect(delta.deleted.map((d: { id: string }) => d.id)).toEqual([task.id]);
    const rest = await json(await call(`/api/v1/tasks?since=${encodeURIComponent(serverTime)}`, { token: user.key }));
    expect(rest.meta.deleted.map((d: { id: string }) => d.id)).toEqual([task.id]);
    expect((await toolError(client, "delete_task", { id: task.id })).error.code).toBe("task_not_found");
  });

  it("cannot delete another account's task", async () => {
    const owner = await maxClient();
    const other = await maxClient();
    const { task } = await callOk(owner.client, "create_task", { title: "mine" });
    expect((await toolError(other.client, "delete_task", { id: task.id })).error.code).toBe("task_not_found");
    expect((await call(`/api/v1/tasks/${task.id}`, { token: owner.user.key })).status).toBe(200);
  });
});
