import { describe, expect, it } from "vitest";
import { accountSql, call, createTask, json, maxUser } from "../helpers";

describe("POST /api/v1/tasks", () => {
  it("answers 201 with the full task and a Location header", async () => {
    const user = await maxUser();
    const res = await call("/api/v1/tasks", {
      token: user.key,
      body: {
        title: "Renew passport",
        notes: "photos",
        due: "2026-12-24",
        reminder: "2026-12-23T09:00:00+01:00",
        repeat: "FREQ=YEARLY",
        listId: "errands",
        important: true,
      },
    });
    expect(res.status).toBe(201);
    const task = await json(res);
    expect(task).toMatchObject({
      title: "Renew passport",
      notes: "photos",
      due: "2026-12-24",
      reminder: "2026-12-23T09:00:00+01:00",
      repeat: "FREQ=YEARLY",
      listId: "errands",
      important: true,
      completed: false,
    });
    expect(task.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(task.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers.get("location")).toBe(`http://example.com/api/v1/tasks/${task.id}`);
  });

  it("counts title length in code points: 500 emoji pass, 501 characters fail", async () => {
    const user = await maxUser();
    expect((await call("/api/v1/tasks", { token: user.key, body: { title: "😀".repeat(500) } })).status).toBe(201);
    const res = await call("/api/v1/tasks", { token: user.key, body: { title: "a".repeat(501) } });
    expect(res.status).toBe(400);
    const problem = await json(res);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors[0].path).toBe("title");
  });

  it("accepts notes of 20000 characters and refuses 20001", async () => {
    const user = await maxUser();
    expect(
      (await call("/api/v1/tasks", { token: user.key, body: { title: "n", notes: "x".repeat(20000) } })).status,
    ).toBe(201);
    expect(
      (await call("/api/v1/tasks", { token: user.key, body: { title: "n", notes: "x".repeat(20001) } })).status,
    ).toBe(400);
  });

  it.each([
    [{ title: "   " }, "title"],
    [{}, "title"],
    [{ title: 5 }, "title"],
    [{ title: "x", due: "2026-02-30" }, "due"],
    [{ title: "x", due: "tomorrow" }, "due"],
    [{ title: "x", due: "2026-03-01T10:00:00" }, "due"],
    [{ title: "x", reminder: "2026-03-01" }, "reminder"],
    [{ title: "x", repeat: "FREQ=HOURLY" }, "repeat"],
    [{ title: "x", repeat: "FREQ=DAILY;COUNT=2;UNTIL=20270101" }, "repeat"],
    [{ title: "x", repeat: "RRULE:FREQ=DAILY" }, "repeat"],
    [{ title: "x", listId: "has space" }, "listId"],
    [{ title: "x", listId: "a".repeat(101) }, "listId"],
    [{ title: "x", important: "yes" }, "important"],
    [{ title: "x", completed: true }, ""],
    [{ title: "x", colour: "red" }, ""],
  ])("refuses %j with 400 naming %s", async (body, path) => {
    const user = await maxUser();
    const res = await call("/api/v1/tasks", { token: user.key, body });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await json(res);
    expect(problem).toMatchObject({
      status: 400,
      code: "validation_failed",
      title: expect.any(String),
      type: expect.any(String),
    });
    expect(problem.errors.map((e: { path: string }) => e.path)).toContain(path);
    const list = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(list.meta.count).toBe(0);
  });

  it("refuses malformed JSON, non-JSON bodies and bodies over 128 KiB", async () => {
    const user = await maxUser();
    const malformed = await call("/api/v1/tasks", { token: user.key, body: '{"title": ' });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).code).toBe("validation_failed");
    const text = await call("/api/v1/tasks", {
      token: user.key,
      body: '{"title":"x"}',
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(400);
    const huge = await call("/api/v1/tasks", { token: user.key, body: { title: "x", notes: "y".repeat(140 * 1024) } });
    expect(huge.status).toBe(413);
    expect((await json(huge)).code).toBe("payload_too_large");
  });
});

describe("PATCH /api/v1/tasks/{id}", () => {
  it("completes and reopens a task, moving updatedAt forward each time", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    const done = await json(
      await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { completed: true } }),
    );
    expect(done.completed).toBe(true);
    expect(done.updatedAt > task.updatedAt).toBe(true);
    const reopened = await json(
      await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { completed: false } }),
    );
    expect(reopened.completed).toBe(false);
    expect(reopened.updatedAt > done.updatedAt).toBe(true);
  });

  it("strictly increases updatedAt across rapid successive changes", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    const stamps = [task.updatedAt];
    for (let i = 0; i < 5; i++) {
      const res = await call(`/api/v1/tasks/${task.id}`, {
        method: "PATCH",
        token: user.key,
        body: { title: `t${i}` },
      });
      stamps.push((await json(res)).updatedAt);
    }
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).toBe(true);
  });

  it("treats {} as a no-op that keeps updatedAt", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    const res = await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: {} });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(task);
  });

  it("clears fields: reminder with null, due/repeat/notes/listId with empty strings", async () => {
    const user = await maxUser();
    const task = await createTask(user.key, {
      title: "t",
      due: "2026-12-01",
      reminder: "2026-11-30T08:00:00Z",
      repeat: "FREQ=DAILY",
      notes: "n",
      listId: "home",
    });
    const res = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { reminder: null, due: "", repeat: "", notes: "", listId: "" },
    });
    const cleared = await json(res);
    expect(res.status).toBe(200);
    for (const field of ["reminder", "due", "repeat", "notes", "listId"]) expect(cleared).not.toHaveProperty(field);
  });

  it.each([
    [{ due: null }],
    [{ title: null }],
    [{ notes: null }],
    [{ title: "" }],
    [{ id: "x" }],
    [{ title: "a".repeat(501) }],
    [{ due: "2026-02-29" }],
  ])("refuses %j with 400 and changes nothing", async (body) => {
    const user = await maxUser();
    const task = await createTask(user.key, { title: "keep", due: "2026-12-01", notes: "n" });
    const res = await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body });
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe("validation_failed");
    const after = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(after.data).toEqual([task]);
  });

  it("answers 404 task_not_found for an unknown id", async () => {
    const user = await maxUser();
    const res = await call("/api/v1/tasks/0193c000-0000-7000-8000-000000000000", {
      method: "PATCH",
      token: user.key,
      body: { title: "x" },
    });
    expect(res.status).toBe(404);
    expect((await json(res)).code).toBe("task_not_found");
  });
});

describe("DELETE /api/v1/tasks/{id}", () => {
  it("answers 204 with no body, then 404 for a second delete", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    const first = await call(`/api/v1/tasks/${task.id}`, { method: "DELETE", token: user.key });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe("");
    const second = await call(`/api/v1/tasks/${task.id}`, { method: "DELETE", token: user.key });
    expect(second.status).toBe(404);
    expect((await json(second)).code).toBe("task_not_found");
    expect(
      (await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { title: "x" } })).status,
    ).toBe(404);
  });

  it("keeps a tombstone row instead of erasing the task", async () => {
    const user = await maxUser();
    const task = await createTask(user.key);
    await call(`/api/v1/tasks/${task.id}`, { method: "DELETE", token: user.key });
    const [row] = await accountSql<{ deleted_at: string }>(
      user.accountId,
      "SELECT deleted_at FROM tasks WHERE id = ?",
      task.id,
    );
    expect(row?.deleted_at).toMatch(/Z$/);
  });
});

describe("cross-account isolation", () => {
  it("hides another account's task: 404 on PATCH, DELETE and GET, absent from lists", async () => {
    const alice = await maxUser("alice");
    const bob = await maxUser("bob");
    const task = await createTask(alice.key, { title: "alice only" });
    for (const method of ["PATCH", "DELETE", "GET"]) {
      const res = await call(`/api/v1/tasks/${task.id}`, {
        method,
        token: bob.key,
        body: method === "PATCH" ? { title: "hijack" } : undefined,
      });
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe("task_not_found");
    }
    expect((await json(await call("/api/v1/tasks", { token: bob.key }))).data).toEqual([]);
    expect((await json(await call("/api/v1/tasks", { token: alice.key }))).data).toEqual([task]);
  });
});
