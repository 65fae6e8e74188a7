import { describe, expect, it } from "vitest";
import { call, createKey, createTask, json, maxUser, signUp } from "../helpers";

type User = Awaited<ReturnType<typeof maxUser>>;

const lists = async (user: User, query = "") => {
  const res = await call(`/api/v1/lists${query}`, { token: user.key });
  expect(res.status).toBe(200);
  return json(res);
};
const createList = (user: User, body: unknown) => call("/api/v1/lists", { token: user.key, body });
const patchList = (user: User, id: string, body: unknown) =>
  call(`/api/v1/lists/${id}`, { method: "PATCH", token: user.key, body });
const deleteList = (user: User, id: string) => call(`/api/v1/lists/${id}`, { method: "DELETE", token: user.key });
const byId = (page: { data: { id: string }[] }): Record<string, any> =>
  Object.fromEntries(page.data.map((list) => [list.id, list]));

describe("lists over REST", () => {
  it("creates, lists with counts, renames and deletes a list", async () => {
    const user = await maxUser("lists-crud");
    const res = await createList(user, { name: "Groceries" });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toMatchObject({ name: "Groceries", openCount: 0, taskCount: 0 });
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{1,100}$/);
    expect(res.headers.get("location")).toBe(`http://example.com/api/v1/lists/${created.id}`);

    await createTask(user.key, { title: "milk", listId: created.id });
    const bread = await createTask(user.key, { title: "bread", listId: created.id });
    await call(`/api/v1/tasks/${bread.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    await createTask(user.key, { title: "no list" });
    const page = await lists(user);
    expect(page.meta.count).toBe(1);
    expect(page.data[0]).toMatchObject({ id: created.id, name: "Groceries", openCount: 1, taskCount: 2 });
    expect(page.data[0].updatedAt >= created.updatedAt).toBe(true);

    const renamed = await patchList(user, created.id, { name: "Food" });
    expect(renamed.status).toBe(200);
    expect(await json(renamed)).toMatchObject({ id: created.id, name: "Food", openCount: 1, taskCount: 2 });
    const unchanged = await json(await patchList(user, created.id, {}));
    expect(unchanged).toMatchObject({ name: "Food", taskCount: 2 });

    expect((await deleteList(user, created.id)).status).toBe(204);
    expect((await lists(user)).data).toEqual([]);
    const left = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(left.data.map((t: { title: string }) => t.title)).toEqual(["no list"]);
    const again = await deleteList(user, created.id);
    expect([again.status, (await json(again)).code]).toEqual([404, "list_not_found"]);
  });

  it("takes the id the body gives, and orders lists by name ignoring case", async () => {
    const user = await maxUser("lists-ids");
    expect((await createList(user, { name: "zebra", id: "z" })).status).toBe(201);
    expect((await createList(user, { name: "Apples", id: "a-list_1" })).status).toBe(201);
    expect((await createList(user, { name: "bananas" })).status).toBe(201);
    expect((await lists(user)).data.map((l: { name: string }) => l.name)).toEqual(["Apples", "bananas", "zebra"]);
    const taken = await createList(user, { name: "other", id: "z" });
    expect([taken.status, (await json(taken)).code]).toEqual([409, "list_exists"]);
    const bad = await createList(user, { name: "x", id: "no spaces" });
    expect([bad.status, (await json(bad)).errors[0].path]).toEqual([400, "id"]);
  });

  it("keeps names unique per account ignoring case (409 list_exists)", async () => {
    const user = await maxUser("lists-unique");
    const home = await json(await createList(user, { name: "Home" }));
    for (const name of ["home", "HOME", "ＨＯＭＥ".normalize("NFKC")]) {
      const res = await createList(user, { name });
      expect([res.status, (await json(res)).code], name).toEqual([409, "list_exists"]);
    }
    expect((await createList(user, { name: "Straße" })).status).toBe(201);
    expect((await createList(user, { name: "STRASSE" })).status).toBe(409);
    const work = await json(await createList(user, { name: "Work" }));
    const clash = await patchList(user, work.id, { name: "hOmE" });
    expect([clash.status, (await json(clash)).code]).toEqual([409, "list_exists"]);
    // A list may change the case of its own name.
    expect((await json(await patchList(user, home.id, { name: "HOME" }))).name).toBe("HOME");
    // The error names the existing list by its name as stored, not by its id (issue 35 item 13).
    const named = await json(await createList(user, { name: "hOmE" }));
    const renamed = await json(await patchList(user, work.id, { name: "home" }));
    for (const problem of [named, renamed]) {
      expect(problem.code).toBe("list_exists");
      expect(problem.detail).toContain('"HOME"');
      expect(problem.detail).not.toContain(home.id);
    }
    // Another account may use the same name.
    expect((await createList(await maxUser("lists-unique-2"), { name: "home" })).status).toBe(201);
    // A deleted list's name is free again.
    expect((await deleteList(user, work.id)).status).toBe(204);
    expect((await createList(user, { name: "work" })).status).toBe(201);
  });

  it("creates a list for a task written with a listId that names none, named after its id", async () => {
    const user = await maxUser("lists-implicit");
    const task = await createTask(user.key, { title: "post the letter", listId: "errands" });
    expect(task.listId).toBe("errands");
    expect(byId(await lists(user)).errands).toMatchObject({ name: "errands", openCount: 1, taskCount: 1 });
    // Moving a task there creates it too; its old list keeps existing, empty.
    const moved = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { listId: "town" },
    });
    expect(moved.status).toBe(200);
    const page = byId(await lists(user));
    expect(page.town).toMatchObject({ name: "town", taskCount: 1 });
    expect(page.errands).toMatchObject({ taskCount: 0 });
    // A listId that is a list's name (ignoring case) means that list: no second list is made (issue 26).
    await createList(user, { name: "Garden", id: "g1" });
    const mow = await createTask(user.key, { title: "mow", listId: "garden" });
    const rake = await createTask(user.key, { title: "rake", listId: "GARDEN" });
    expect([mow.listId, rake.listId]).toEqual(["g1", "g1"]);
    const garden = byId(await lists(user));
    expect(garden.g1).toMatchObject({ name: "Garden", taskCount: 2 });
    expect([garden.garden, garden.GARDEN]).toEqual([undefined, undefined]);
    // A deleted list's id comes back as a new list.
    expect((await deleteList(user, "town")).status).toBe(204);
    await createTask(user.key, { title: "back in town", listId: "town" });
    expect(byId(await lists(user)).town).toMatchObject({ name: "town", taskCount: 1 });
  });

  it("shows changed lists and deletions in a since sync, and a list's deleted tasks in the task sync", async () => {
    const user = await maxUser("lists-since");
    const keep = await json(await createList(user, { name: "Keep" }));
    const drop = await json(await createList(user, { name: "Drop" }));
    const tasks = [
      await createTask(user.key, { title: "a", listId: drop.id }),
      await createTask(user.key, { title: "b", listId: drop.id }),
    ];
    const kept = await createTask(user.key, { title: "c", listId: keep.id });
    const first = await lists(user);
    const taskSync = await json(await call("/api/v1/tasks", { token: user.key }));
    const since = encodeURIComponent(first.meta.serverTime);
    expect((await lists(user, `?since=${since}`)).data).toEqual([]);

    expect((await deleteList(user, drop.id)).status).toBe(204);
    const listDelta = await lists(user, `?since=${since}`);
    expect(listDelta.data).toEqual([]);
    expect(listDelta.meta.deleted.map((d: { id: string }) => d.id)).toEqual([drop.id]);
    const taskDelta = await json(
      await call(`/api/v1/tasks?since=${encodeURIComponent(taskSync.meta.serverTime)}`, { token: user.key }),
    );
    expect(taskDelta.meta.deleted.map((d: { id: string }) => d.id).sort()).toEqual(tasks.map((t) => t.id).sort());

    // Completing a task moves its list's counts, so the list is in the next sync.
    await call(`/api/v1/tasks/${kept.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    const counted = await lists(user, `?since=${encodeURIComponent(listDelta.meta.serverTime)}`);
    expect(counted.data).toMatchObject([{ id: keep.id, openCount: 0, taskCount: 1 }]);
    const old = await call("/api/v1/lists?since=2001-01-01T00:00:00Z", { token: user.key });
    expect([old.status, (await json(old)).code]).toEqual([410, "sync_expired"]);
  });

  it("never shows or changes another account's lists (404 list_not_found)", async () => {
    const owner = await maxUser("lists-owner");
    const other = await maxUser("lists-other");
    const list = await json(await createList(owner, { name: "Private" }));
    await createTask(owner.key, { title: "secret", listId: list.id });
    expect((await lists(other)).data).toEqual([]);
    for (const res of [await patchList(other, list.id, { name: "Mine" }), await deleteList(other, list.id)])
      expect([res.status, (await json(res)).code]).toEqual([404, "list_not_found"]);
    // The same id in another account is that account's own list.
    await createTask(other.key, { title: "mine", listId: list.id });
    expect((await lists(other)).data).toMatchObject([{ id: list.id, name: list.id, taskCount: 1 }]);
    expect((await lists(owner)).data).toMatchObject([{ id: list.id, name: "Private", taskCount: 1 }]);
    expect((await deleteList(other, list.id)).status).toBe(204);
    expect((await lists(owner)).data).toMatchObject([{ name: "Private", taskCount: 1 }]);
  });

  it("judges credentials before input: 401, then 403, then 400", async () => {
    const user = await maxUser("lists-auth");
    const free = await signUp("lists-free");
    const { key: freeKey } = await createKey(free.session);
    const bad = { name: "" };
    expect((await call("/api/v1/lists", { body: bad })).status).toBe(401);
    expect((await call("/api/v1/lists", { token: freeKey, body: bad })).status).toBe(403);
    expect((await call("/api/v1/lists", { token: freeKey })).status).toBe(403);
    const invalid = await call("/api/v1/lists", { token: user.key, body: { name: "  ", extra: 1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(invalid)).errors.map((e: { path: string }) => e.path).sort()).toEqual(["", "name"]);
    const long = await call("/api/v1/lists", { token: user.key, body: { name: "x".repeat(101) } });
    expect(long.status).toBe(400);
    expect((await call("/api/v1/lists", { token: user.key, body: { name: "🍎".repeat(100) } })).status).toBe(201);
  });
});
