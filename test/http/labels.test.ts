import { describe, expect, it } from "vitest";
import { AccountExport } from "../../src/http/account-export";
import { accountSql, call, createTask, json, maxUser } from "../helpers";

/** Labels over REST, against the real account object: rules of issue 34, item 2. */

type User = Awaited<ReturnType<typeof maxUser>>;

const labels = async (user: User) => {
  const res = await call("/api/v1/labels", { token: user.key });
  expect(res.status).toBe(200);
  return (await json(res)).data as { id: string; name: string; color?: string; taskCount: number }[];
};
const createLabel = (user: User, body: unknown) => call("/api/v1/labels", { token: user.key, body });
const patchLabel = (user: User, id: string, body: unknown) =>
  call(`/api/v1/labels/${id}`, { method: "PATCH", token: user.key, body });
const deleteLabel = (user: User, id: string) => call(`/api/v1/labels/${id}`, { method: "DELETE", token: user.key });
const getTask = async (user: User, id: string) => json(await call(`/api/v1/tasks/${id}`, { token: user.key }));
const titles = async (user: User, query: string) => {
  const res = await call(`/api/v1/tasks?${query}`, { token: user.key });
  expect(res.status).toBe(200);
  return (await json(res)).data.map((t: { title: string }) => t.title).sort();
};

describe("labels over REST", () => {
  it("creates, lists with counts and a colour, and refuses a duplicate name, naming the label", async () => {
    const user = await maxUser("labels-crud");
    const res = await createLabel(user, { name: "  Errand ", color: "#3B82F6" });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toMatchObject({ name: "Errand", color: "#3b82f6", taskCount: 0 });
    expect(res.headers.get("location")).toBe(`http://example.com/api/v1/labels/${created.id}`);
    await createLabel(user, { name: "anytime" });
    expect((await labels(user)).map((l) => [l.name, l.color])).toEqual([
      ["anytime", undefined],
      ["Errand", "#3b82f6"],
    ]);
    const duplicate = await createLabel(user, { name: "ERRAND" });
    const problem = await json(duplicate);
    expect([duplicate.status, problem.code]).toEqual([409, "label_exists"]);
    expect(problem.detail).toContain('"Errand"');
    const badColor = await createLabel(user, { name: "x", color: "blue" });
    expect([badColor.status, (await json(badColor)).errors[0].path]).toEqual([400, "color"]);
  });

  it("gives every task `labels`, [] when none; names are matched ignoring case and created when new", async () => {
    const user = await maxUser("labels-tasks");
    await createLabel(user, { name: "Errand" });
    const plain = await createTask(user.key, { title: "plain" });
    expect(plain.labels).toEqual([]);
    const task = await createTask(user.key, { title: "milk", labels: ["errand", " Phone ", "ERRAND"] });
    // The stored spelling of a known label; a new name as given (trimmed); a repeat counts once.
    expect(task.labels).toEqual(["Errand", "Phone"]);
    expect((await labels(user)).map((l) => [l.name, l.taskCount])).toEqual([
      ["Errand", 1],
      ["Phone", 1],
    ]);
    const patched = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { labels: ["phone"] },
    });
    expect((await json(patched)).labels).toEqual(["Phone"]);
    expect((await labels(user)).map((l) => [l.name, l.taskCount])).toEqual([
      ["Errand", 0],
      ["Phone", 1],
    ]);
    const cleared = await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { labels: [] } });
    expect((await json(cleared)).labels).toEqual([]);
    const listed = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(listed.data.map((t: { labels: string[] }) => t.labels)).toEqual([[], []]);
  });

  it("refuses 21 labels and a 61-character name with a 400 that says why", async () => {
    const user = await maxUser("labels-limits");
    const many = Array.from({ length: 21 }, (_, i) => `l${i}`);
    const tooMany = await call("/api/v1/tasks", { token: user.key, body: { title: "t", labels: many } });
    const problem = await json(tooMany);
    expect([tooMany.status, problem.errors[0].path, problem.errors[0].message]).toEqual([
      400,
      "labels",
      "must have at most 20 labels",
    ]);
    const long = await call("/api/v1/tasks", { token: user.key, body: { title: "t", labels: ["x".repeat(61)] } });
    expect([long.status, (await json(long)).errors[0].message]).toEqual([400, "must be at most 60 characters"]);
    const blank = await createLabel(user, { name: "   " });
    expect([blank.status, (await json(blank)).errors[0].message]).toEqual([
      400,
      "must contain at least one non-space character",
    ]);
    // Twenty labels of 60 characters are fine, and nothing was created by the refused requests.
    const twenty = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(60, "x"));
    expect((await createTask(user.key, { title: "t", labels: twenty })).labels).toHaveLength(20);
    expect(await labels(user)).toHaveLength(20);
  });

  it("renames a label on every task, moving their updatedAt so a `since` sync sees it", async () => {
    const user = await maxUser("labels-rename");
    const a = await createTask(user.key, { title: "a", labels: ["home", "errand"] });
    const b = await createTask(user.key, { title: "b", labels: ["errand"] });
    const c = await createTask(user.key, { title: "c", labels: ["home"] });
    const since = (await json(await call("/api/v1/tasks", { token: user.key }))).meta.serverTime;
    const errand = (await labels(user)).find((l) => l.name === "errand")!;
    const res = await patchLabel(user, errand.id, { name: "Errands" });
    expect(res.status).toBe(200);
    const renamed = await json(res);
    expect(renamed).toMatchObject({ id: errand.id, name: "Errands", taskCount: 2 });
    expect((await getTask(user, a.id)).labels).toEqual(["home", "Errands"]);
    expect((await getTask(user, b.id)).labels).toEqual(["Errands"]);
    const synced = await json(await call(`/api/v1/tasks?since=${since}`, { token: user.key }));
    expect(synced.data.map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect((await getTask(user, c.id)).updatedAt).toBe(c.updatedAt);
    // The filter follows the new name; another label's name is 409; `{}` changes nothing.
    expect(await titles(user, "label=errands")).toEqual(["a", "b"]);
    const home = (await labels(user)).find((l) => l.name === "home")!;
    const clash = await patchLabel(user, home.id, { name: "ERRANDS" });
    expect([clash.status, (await json(clash)).code]).toEqual([409, "label_exists"]);
    expect(await json(await patchLabel(user, errand.id, {}))).toEqual(renamed);
    expect(await json(await patchLabel(user, errand.id, { name: "Errands" }))).toEqual(renamed);
    const recased = await json(await patchLabel(user, home.id, { name: "Home", color: "#aabbcc" }));
    expect(recased).toMatchObject({ name: "Home", color: "#aabbcc" });
    expect((await getTask(user, c.id)).labels).toEqual(["Home"]);
    const uncoloured = await json(await patchLabel(user, home.id, { color: "" }));
    expect(uncoloured.color).toBeUndefined();
  });

  it("deletes a label from every task, which stay; an unknown id is 404", async () => {
    const user = await maxUser("labels-delete");
    const a = await createTask(user.key, { title: "a", labels: ["x", "y"] });
    const b = await createTask(user.key, { title: "b", labels: ["x"] });
    const x = (await labels(user)).find((l) => l.name === "x")!;
    expect((await deleteLabel(user, x.id)).status).toBe(204);
    expect((await getTask(user, a.id)).labels).toEqual(["y"]);
    const after = await getTask(user, b.id);
    expect([after.title, after.labels]).toEqual(["b", []]);
    expect(after.updatedAt > b.updatedAt).toBe(true);
    expect((await labels(user)).map((l) => l.name)).toEqual(["y"]);
    expect(await accountSql(user.accountId, "SELECT * FROM task_labels WHERE label_id = ?", x.id)).toEqual([]);
    expect(await titles(user, "label=x")).toEqual([]);
    for (const res of [await deleteLabel(user, x.id), await patchLabel(user, x.id, { name: "z" })]) {
      expect([res.status, (await json(res)).code]).toEqual([404, "label_not_found"]);
    }
    // Another account's label is not found either.
    const other = await maxUser("labels-other");
    const y = (await labels(user)).find((l) => l.name === "y")!;
    const foreign = await call(`/api/v1/labels/${y.id}`, { method: "DELETE", token: other.key });
    expect(foreign.status).toBe(404);
  });

  it("filters by label, repeatable meaning all of them, ignoring case; search finds labels", async () => {
    const user = await maxUser("labels-filter");
    await createTask(user.key, { title: "call bob", labels: ["Phone", "errand"] });
    await createTask(user.key, { title: "buy milk", labels: ["errand"] });
    await createTask(user.key, { title: "write", labels: ["Café time"], notes: "quietly" });
    await createTask(user.key, { title: "nothing" });
    expect(await titles(user, "label=ERRAND")).toEqual(["buy milk", "call bob"]);
    expect(await titles(user, "label=errand&label=phone")).toEqual(["call bob"]);
    expect(await titles(user, "label=errand&label=unknown")).toEqual([]);
    expect(await titles(user, "label=errand&completed=false&limit=1")).toHaveLength(1);
    // Search: every word starts a word of the title, notes or a label, accents and case folded.
    expect(await titles(user, "q=erra")).toEqual(["buy milk", "call bob"]);
    expect(await titles(user, "q=cafe")).toEqual(["write"]);
    expect(await titles(user, "q=time%20quiet")).toEqual(["write"]);
    expect(await titles(user, "q=phone%20bob")).toEqual(["call bob"]);
    expect(await titles(user, "q=ime")).toEqual([]);
    const bad = await call(`/api/v1/tasks?label=${"x".repeat(61)}`, { token: user.key });
    expect([bad.status, (await json(bad)).errors[0].path]).toEqual([400, "label"]);
  });

  it("copies labels to a repeating task's next occurrence, and keeps them on an idempotent replay", async () => {
    const user = await maxUser("labels-repeat");
    const task = await createTask(user.key, {
      title: "water",
      labels: ["home"],
      due: "2026-12-01",
      repeat: "FREQ=DAILY",
    });
    const res = await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    const nextId = /<\/api\/v1\/tasks\/([^>]+)>/.exec(res.headers.get("link")!)![1]!;
    expect((await getTask(user, nextId)).labels).toEqual(["home"]);
    expect((await labels(user))[0]).toMatchObject({ name: "home", taskCount: 2 });
    const body = { title: "once", labels: ["Home"] };
    const headers = { "idempotency-key": "labels-once" };
    const first = await json(await call("/api/v1/tasks", { token: user.key, body, headers }));
    const replay = await call("/api/v1/tasks", { token: user.key, body, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(replay)).toEqual(first);
    expect(first.labels).toEqual(["home"]);
  });

  it("serves the tasks page's session at /account/labels", async () => {
    const user = await maxUser("labels-page");
    const res = await call("/account/labels", { token: user.session, body: { name: "page" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toMatch(/\/account\/labels\/[0-9a-f-]+$/);
    expect((await labels(user)).map((l) => l.name)).toEqual(["page"]);
  });

  it("exports the labels, with their colours, and each task's labels", async () => {
    const user = await maxUser("labels-export");
    await createLabel(user, { name: "Blue", color: "#0000ff" });
    const task = await createTask(user.key, { title: "t", labels: ["blue", "plain"] });
    const doc = AccountExport.parse(await json(await call("/account/export", { token: user.session })));
    expect(doc.labels.map(({ name, color }) => ({ name, color }))).toEqual([
      { name: "Blue", color: "#0000ff" },
      { name: "plain", color: undefined },
    ]);
    expect(doc.tasks.find((t) => t.id === task.id)?.labels).toEqual(["Blue", "plain"]);
  });
});
