import { describe, expect, it } from "vitest";
import { exports } from "cloudflare:workers";
import { BASE, call, createTask, json, maxUser } from "../helpers";
import { TODOIST_CSV } from "../support/todoist-csv";

/**
 * POST /api/v1/import in workerd against the real object: the round trip through the export, a Todoist
 * CSV, idempotency, all or nothing, and the limits. The readers' rules are tested in test/import/*.
 */

const upload = (token: string, body: string, type: string, query = "", headers: Record<string, string> = {}) =>
  call(`${token.startsWith("todo_live_") ? "/api/v1" : "/account"}/import${query}`, {
    token,
    body,
    headers: { "content-type": type, ...headers },
  });

const tasksOf = async (key: string) => (await json(await call("/api/v1/tasks", { token: key }))).data as any[];
const listsOf = async (key: string) => (await json(await call("/api/v1/lists", { token: key }))).data as any[];

/** The export's content without what changes by itself when written again. */
const content = (doc: any) => ({
  lists: doc.lists.map(({ id, name }: any) => ({ id, name })),
  labels: doc.labels.map(({ name, color }: any) => ({ name, color })),
  tasks: doc.tasks.map(({ updatedAt: _, ...task }: any) => task),
});

describe("POST /api/v1/import", { timeout: 30_000 }, () => {
  it("takes back its own export after erasure: the same tasks, lists and order; a second time adds nothing", async () => {
    const before = await maxUser("import-from");
    await call("/api/v1/labels", { token: before.key, body: { name: "Errand", color: "#3b82f6" } });
    const parent = await createTask(before.key, {
      title: "Launch",
      notes: "n",
      due: "2026-12-24",
      listId: "work",
      labels: ["errand", "phone"],
    });
    await createTask(before.key, { title: "Repeat", due: "2026-12-01", repeat: "FREQ=WEEKLY", important: true });
    const done = await createTask(before.key, { title: "Done", listId: "work" });
    await call(`/api/v1/tasks/${done.id}`, { method: "PATCH", token: before.key, body: { completed: true } });
    await call("/api/v1/lists", { token: before.key, body: { id: "empty", name: "Empty list" } });
    const exported = await (await call("/account/export", { token: before.session })).text();
    const erased = await call("/account", {
      method: "DELETE",
      token: before.session,
      body: { password: before.password },
    });
    expect(erased.status).toBe(204);

    const after = await maxUser("import-to");
    const res = await upload(after.key, exported, "application/json");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ imported: { tasks: 3, lists: 2, labels: 2 }, skipped: [] });
    const again = await (await call("/account/export", { token: after.session })).text();
    expect(content(JSON.parse(again))).toEqual(content(JSON.parse(exported)));
    expect((await tasksOf(after.key)).find((t) => t.id === parent.id)).toMatchObject({
      title: "Launch",
      listId: "work",
    });

    const twice = await json(await upload(after.key, exported, "application/json"));
    expect(twice.imported).toEqual({ tasks: 0, lists: 0, labels: 0 });
    expect(twice.skipped).toHaveLength(3);
    expect(twice.skipped[0].reason).toMatch(/^already imported: task /);
    expect(await tasksOf(after.key)).toHaveLength(3);
  });

  it("imports a Todoist CSV into the list named, reports what it could not read, and only once", async () => {
    const user = await maxUser("import-todoist");
    const res = await upload(user.key, TODOIST_CSV, "text/csv", "?list=Launch");
    expect(res.status).toBe(200);
    const result = await json(res);
    expect(result.imported).toEqual({ tasks: 5, lists: 1, labels: 3 });
    expect(result.skipped.map((s: any) => s.line)).toEqual([2, 7, 11]);
    const [list] = await listsOf(user.key);
    expect(list).toMatchObject({ name: "Launch", taskCount: 5 });
    const tasks = await tasksOf(user.key);
    const byTitle = new Map(tasks.map((t) => [t.title, t]));
    expect(byTitle.get("Plan the launch")).toMatchObject({
      listId: list.id,
      notes: "The big one\n\nRemember, the venue\nneeds a deposit",
      due: "2026-12-24",
    });
    expect(byTitle.get("Plan the launch")!.labels).toEqual(["work"]);
    expect(byTitle.get("Book the venue")).toMatchObject({ repeat: "FREQ=WEEKLY;BYDAY=MO", labels: ["phone", "work"] });
    expect(byTitle.get("Write the recap")!.labels).toEqual(["Later"]);
    const labels = (await json(await call("/api/v1/labels", { token: user.key }))).data;
    expect(labels.map((l: any) => [l.name, l.taskCount])).toEqual([
      ["Later", 2],
      ["phone", 1],
      ["work", 2],
    ]);
    expect(byTitle.get("Pay deposit")!.due).toBeUndefined();

    const twice = await json(await upload(user.key, TODOIST_CSV, "text/csv", "?list=Launch"));
    expect(twice.imported).toEqual({ tasks: 0, lists: 0, labels: 0 });
    expect(await tasksOf(user.key)).toHaveLength(5);
  });

  it("names the list after the file when the request does not", async () => {
    const user = await maxUser("import-filename");
    const res = await upload(user.key, "TYPE,CONTENT\ntask,From the file\n", "text/csv", "", {
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent("Küche.csv")}`,
    });
    expect(res.status).toBe(200);
    expect((await listsOf(user.key)).map((l) => l.name)).toEqual(["Küche"]);
    const nameless = await upload(user.key, "TYPE,CONTENT\ntask,X\n", "text/csv");
    expect(nameless.status).toBe(400);
    expect((await json(nameless)).detail).toMatch(/\?list=/);
  });

  it("takes the account page's upload with the session at /account/import", async () => {
    const user = await maxUser("import-page");
    const res = await upload(user.session, "TYPE,CONTENT\ntask,From the page\n", "text/csv", "?list=Page");
    expect(res.status).toBe(200);
    expect((await json(res)).imported).toEqual({ tasks: 1, lists: 1, labels: 0 });
    expect((await tasksOf(user.key)).map((t) => t.title)).toEqual(["From the page"]);
  });

  it("fails the whole file at the line it cannot read, and writes nothing", async () => {
    const user = await maxUser("import-all-or-nothing");
    const csv = "TYPE,CONTENT,PRIORITY,INDENT\ntask,Fine,,1\ntask,Also fine,,2\ntask,Too deep,,4\n";
    const res = await upload(user.key, csv, "text/csv", "?list=Half");
    expect(res.status).toBe(400);
    const problem = await json(res);
    expect(problem.detail).toMatch(/^Line 4: INDENT 4 follows a task of INDENT 2/);
    expect(problem.errors).toEqual([{ path: "line 4", message: expect.stringMatching(/^INDENT 4/) }]);
    expect(await tasksOf(user.key)).toEqual([]);
    expect(await listsOf(user.key)).toEqual([]);
  });

  it("refuses more than 5 MB or 5,000 tasks with a 413 that says so, and other media types with a 400", async () => {
    const user = await maxUser("import-limits");
    const big = await upload(user.key, "x".repeat(5 * 1024 * 1024 + 1), "text/csv", "?list=Big");
    expect(big.status).toBe(413);
    expect((await json(big)).detail).toMatch(/at most 5 MB/);
    // Without a declared length, the body is counted while it is read.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(65));
        controller.close();
      },
    });
    const streamed = await exports.default.fetch(
      new Request(`${BASE}/api/v1/import?list=Big`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.key}`, "content-type": "text/csv" },
        body: chunks,
      }),
    );
    expect(streamed.status).toBe(413);
    const rows = Array.from({ length: 5001 }, (_, i) => `task,T${i}`).join("\n");
    const many = await upload(user.key, `TYPE,CONTENT\n${rows}`, "text/csv", "?list=Many");
    expect(many.status).toBe(413);
    expect((await json(many)).detail).toMatch(/at most 5,000 tasks a request; this file has 5,001/);
    const xml = await upload(user.key, "<tasks/>", "application/xml");
    expect(xml.status).toBe(400);
    expect(await tasksOf(user.key)).toEqual([]);
    // Credentials before the body: no key, no 413.
    const anonymous = await call("/api/v1/import?list=Big", {
      body: "x".repeat(5 * 1024 * 1024 + 1),
      headers: { "content-type": "text/csv" },
    });
    expect(anonymous.status).toBe(401);
  });
});
