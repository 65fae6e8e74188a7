import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";

const found = async (key: string, query: string) => {
  const res = await call(`/api/v1/tasks?${query}`, { token: key });
  expect(res.status).toBe(200);
  return ((await json(res)).data as { title: string }[]).map((t) => t.title).sort();
};

describe("GET /api/v1/tasks?q=: search over title and notes", () => {
  it("finds word prefixes, ignoring case and accents, in titles and notes", async () => {
    const user = await maxUser("search");
    await createTask(user.key, { title: "Café with Ana" });
    await createTask(user.key, { title: "Renew passport", notes: "Bring two PHOTOS" });
    await createTask(user.key, { title: "Straßenfest planen" });
    await createTask(user.key, { title: "Buy bread" });
    expect(await found(user.key, "q=cafe")).toEqual(["Café with Ana"]);
    expect(await found(user.key, "q=PASS")).toEqual(["Renew passport"]);
    expect(await found(user.key, "q=photo")).toEqual(["Renew passport"]);
    expect(await found(user.key, "q=renew%20photos")).toEqual(["Renew passport"]);
    expect(await found(user.key, "q=strassen")).toEqual([]);
    expect(await found(user.key, "q=straßen")).toEqual(["Straßenfest planen"]);
    expect(await found(user.key, "q=ana%20bread")).toEqual([]);
    expect(await found(user.key, `q=${encodeURIComponent('"bread"*')}`)).toEqual(["Buy bread"]);
  });

  it("never finds another account's task or a deleted one, and follows edits", async () => {
    const [alice, bob] = [await maxUser("search-a"), await maxUser("search-b")];
    await createTask(bob.key, { title: "Dentist appointment" });
    const mine = await createTask(alice.key, { title: "Dentist on Monday" });
    expect(await found(alice.key, "q=dentist")).toEqual(["Dentist on Monday"]);
    await call(`/api/v1/tasks/${mine.id}`, { method: "PATCH", token: alice.key, body: { title: "Doctor on Monday" } });
    expect(await found(alice.key, "q=dentist")).toEqual([]);
    expect(await found(alice.key, "q=doctor")).toEqual(["Doctor on Monday"]);
    await call(`/api/v1/tasks/${mine.id}`, { method: "DELETE", token: alice.key });
    expect(await found(alice.key, "q=doctor")).toEqual([]);
  });

  it("combines with the other filters and pages through the results", async () => {
    const user = await maxUser("search-pages");
    for (let i = 1; i <= 6; i++) {
      await createTask(user.key, { title: `report ${i}`, important: i % 2 === 0, due: `2026-12-0${i}` });
    }
    await createTask(user.key, { title: "unrelated", important: true });
    expect(await found(user.key, "q=report&important=true&dueBefore=2026-12-04")).toEqual(["report 2", "report 4"]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const body = await json(
        await call(`/api/v1/tasks?q=rep&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
          token: user.key,
        }),
      );
      seen.push(...body.data.map((t: { title: string }) => t.title));
      cursor = body.meta.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(["report 1", "report 2", "report 3", "report 4", "report 5", "report 6"]);
  });

  it("judges the key before the query, and refuses an empty or overlong q", async () => {
    const user = await maxUser("search-bad");
    expect((await call("/api/v1/tasks?q=")).status).toBe(401);
    expect((await call("/api/v1/tasks?q=", { token: user.key })).status).toBe(400);
    expect((await call(`/api/v1/tasks?q=${"a".repeat(201)}`, { token: user.key })).status).toBe(400);
  });

  it("is list_tasks' query over MCP", async () => {
    const user = await maxUser("search-mcp");
    await createTask(user.key, { title: "Pick up the café order" });
    await createTask(user.key, { title: "Something else" });
    const client = await mcpClient(user.key);
    const listed = await callOk(client, "list_tasks", { query: "cafe" });
    expect(listed.tasks.map((t: { title: string }) => t.title)).toEqual(["Pick up the café order"]);
  });
});
