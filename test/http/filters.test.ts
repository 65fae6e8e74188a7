import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";

const titles = async (key: string, query: string) => {
  const res = await call(`/api/v1/tasks?${query}`, { token: key });
  expect(res.status).toBe(200);
  return ((await json(res)).data as { title: string }[]).map((t) => t.title).sort();
};

describe("task filters: dueBefore, dueAfter, important", () => {
  it("compare the date a due is written with, inclusive, and leave out tasks without due", async () => {
    const user = await maxUser("filters");
    await createTask(user.key, { title: "nov30", due: "2026-11-30" });
    await createTask(user.key, { title: "dec01", due: "2026-12-01", important: true });
    // 23:30 on Dec 24 in UTC-5 is Dec 25 in UTC: it counts on the 24th, as written.
    await createTask(user.key, { title: "dec24-late", due: "2026-12-24T23:30:00-05:00" });
    await createTask(user.key, { title: "dec31", due: "2026-12-31", important: true });
    await createTask(user.key, { title: "none", important: true });
    expect(await titles(user.key, "dueAfter=2026-12-01")).toEqual(["dec01", "dec24-late", "dec31"]);
    expect(await titles(user.key, "dueBefore=2026-12-24")).toEqual(["dec01", "dec24-late", "nov30"]);
    expect(await titles(user.key, "dueAfter=2026-12-01&dueBefore=2026-12-01")).toEqual(["dec01"]);
    expect(await titles(user.key, "important=true")).toEqual(["dec01", "dec31", "none"]);
    expect(await titles(user.key, "important=false")).toEqual(["dec24-late", "nov30"]);
    expect(await titles(user.key, "important=true&dueBefore=2026-12-30")).toEqual(["dec01"]);
  });

  it("combine with completed, listId and pages", async () => {
    const user = await maxUser("filters-pages");
    for (let i = 1; i <= 7; i++) {
      await createTask(user.key, { title: `t${i}`, due: `2026-12-0${i}`, listId: i % 2 ? "odd" : "even" });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await call(
        `/api/v1/tasks?listId=odd&dueAfter=2026-12-02&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { token: user.key },
      );
      const body = await json(res);
      seen.push(...body.data.map((t: { title: string }) => t.title));
      cursor = body.meta.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["t3", "t5", "t7"]);
    expect(await titles(user.key, "completed=true&dueAfter=2026-12-01")).toEqual([]);
  });

  it("refuse a malformed date with 400 naming the parameter, after the key is judged", async () => {
    const user = await maxUser("filters-bad");
    const res = await call("/api/v1/tasks?dueBefore=2026-13-01", { token: user.key });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await json(res))).toMatch(/dueBefore/);
    expect((await call("/api/v1/tasks?dueBefore=2026-13-01")).status).toBe(401);
  });

  it("work the same over MCP list_tasks", async () => {
    const user = await maxUser("filters-mcp");
    await createTask(user.key, { title: "soon", due: "2026-12-02", important: true });
    await createTask(user.key, { title: "later", due: "2027-01-15" });
    const client = await mcpClient(user.key);
    const listed = await callOk(client, "list_tasks", { dueBefore: "2026-12-31", important: true });
    expect(listed.tasks.map((t: { title: string }) => t.title)).toEqual(["soon"]);
  });
});
