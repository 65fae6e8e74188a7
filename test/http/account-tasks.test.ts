import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser, signUp } from "../helpers";

/**
 * The /tasks page's session routes (/account/tasks, /account/lists): the REST task and list operations
 * for a signed-in person, on the same verbs, so what the page does is what REST sees, and back.
 */

type User = Awaited<ReturnType<typeof maxUser>>;

const page = (
  user: { session: string },
  path: string,
  method = "GET",
  body?: unknown,
  headers?: Record<string, string>,
) => call(path, { method, token: user.session, body, headers });
const rest = (user: User, path: string, method = "GET", body?: unknown) =>
  call(path, { method, token: user.key, body });
const problem = async (res: Response) => [res.status, (await json(res)).code];

const ROUTES: [string, string, unknown?][] = [
  ["GET", "/account/tasks"],
  ["POST", "/account/tasks", { title: "x" }],
  ["GET", "/account/tasks/some-id"],
  ["PATCH", "/account/tasks/some-id", { title: "x" }],
  ["DELETE", "/account/tasks/some-id"],
  ["GET", "/account/lists"],
  ["POST", "/account/lists", { name: "x" }],
  ["PATCH", "/account/lists/some-id", { name: "x" }],
  ["DELETE", "/account/lists/some-id"],
];

describe("the /tasks page's session routes", () => {
  it.each(ROUTES)("%s %s: 401 without a session, and with an API key instead of one", async (method, path, body) => {
    expect(await problem(await call(path, { method, body }))).toEqual([401, "unauthorized"]);
    const user = await maxUser("page-key");
    expect(await problem(await call(path, { method, body, token: user.key }))).toEqual([401, "unauthorized"]);
  });

  it.each(ROUTES)("%s %s: 403 max_required without Max, before any input is judged", async (method, path, body) => {
    const free = await signUp("page-free");
    expect(await problem(await page(free, path, method, body))).toEqual([403, "max_required"]);
    if (body) expect(await problem(await page(free, path, method, { nonsense: true }))).toEqual([403, "max_required"]);
  });

  it("creates, lists, edits, completes, reopens and deletes; REST sees every change, and the page sees REST's", async () => {
    const user = await maxUser("page-crud");
    const created = await page(user, "/account/tasks", "POST", { title: "Renew passport", important: true });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const task = await json(created);
    expect(task).toMatchObject({ title: "Renew passport", important: true, completed: false });
    expect(await json(await rest(user, `/api/v1/tasks/${task.id}`))).toEqual(task);

    const fromRest = await createTask(user.key, { title: "Made by an agent" });
    const listed = await json(await page(user, "/account/tasks"));
    expect(listed.data.map((t: { title: string }) => t.title).sort()).toEqual(["Made by an agent", "Renew passport"]);

    const edited = await page(user, `/account/tasks/${task.id}`, "PATCH", { notes: "Two photos", due: "2026-12-24" });
    expect(edited.status).toBe(200);
    expect((await json(edited)).task).toMatchObject({ notes: "Two photos", due: "2026-12-24" });
    const done = await json(await page(user, `/account/tasks/${fromRest.id}`, "PATCH", { completed: true }));
    expect(done.task.completed).toBe(true);
    expect(done.next).toBeUndefined();
    expect((await json(await rest(user, `/api/v1/tasks/${fromRest.id}`))).completed).toBe(true);
    const reopened = await json(await page(user, `/account/tasks/${fromRest.id}`, "PATCH", { completed: false }));
    expect(reopened.task.completed).toBe(false);

    const since = listed.meta.serverTime;
    expect((await page(user, `/account/tasks/${task.id}`, "DELETE")).status).toBe(204);
    const sync = await json(await page(user, `/account/tasks?since=${encodeURIComponent(since)}`));
    expect(sync.data.map((t: { id: string }) => t.id)).toEqual([fromRest.id]);
    expect(sync.meta.deleted.map((t: { id: string }) => t.id)).toEqual([task.id]);
    expect((await rest(user, `/api/v1/tasks/${task.id}`)).status).toBe(404);
  });

  it("completing a repeating task answers its next occurrence in the body", async () => {
    const user = await maxUser("page-repeat");
    const task = await json(
      await page(user, "/account/tasks", "POST", { title: "Water plants", due: "2026-03-02", repeat: "FREQ=WEEKLY" }),
    );
    const change = await json(await page(user, `/account/tasks/${task.id}`, "PATCH", { completed: true }));
    expect(change.task).toMatchObject({ completed: true });
    expect(change.next).toMatchObject({
      title: "Water plants",
      due: "2026-03-09",
      repeat: "FREQ=WEEKLY",
      completed: false,
    });
    expect((await json(await rest(user, `/api/v1/tasks/${change.next.id}`))).due).toBe("2026-03-09");
  });

  it("refuses a stale If-Match with 412 and changes nothing; the task reads back with its ETag", async () => {
    const user = await maxUser("page-412");
    const created = await page(user, "/account/tasks", "POST", { title: "v1" });
    const etag = created.headers.get("etag")!;
    const task = await json(created);
    await rest(user, `/api/v1/tasks/${task.id}`, "PATCH", { title: "changed by an agent" });
    const stale = await page(user, `/account/tasks/${task.id}`, "PATCH", { title: "mine" }, { "If-Match": etag });
    expect(await problem(stale)).toEqual([412, "precondition_failed"]);
    const reloaded = await page(user, `/account/tasks/${task.id}`);
    expect((await json(reloaded)).title).toBe("changed by an agent");
    const fresh = reloaded.headers.get("etag")!;
    const saved = await page(user, `/account/tasks/${task.id}`, "PATCH", { title: "mine" }, { "If-Match": fresh });
    expect((await json(saved)).task.title).toBe("mine");
  });

  it("validates as REST does: the same field errors for a bad RRULE and an unknown property", async () => {
    const user = await maxUser("page-400");
    const body = { title: "x", repeat: "FREQ=HOURLY" };
    const fromPage = await json(await page(user, "/account/tasks", "POST", body));
    const fromRest = await json(await rest(user, "/api/v1/tasks", "POST", body));
    expect(fromPage.errors).toEqual(fromRest.errors);
    expect(fromPage.errors[0].path).toBe("repeat");
    const unknown = await json(await page(user, "/account/tasks", "POST", { title: "x", colour: "red" }));
    expect(unknown.errors[0].message).toContain("colour");
  });

  it("keeps accounts apart: another account's task and list are not found", async () => {
    const [owner, other] = [await maxUser("page-owner"), await maxUser("page-other")];
    const task = await createTask(owner.key, { title: "private", listId: "mine" });
    expect(await problem(await page(other, `/account/tasks/${task.id}`, "PATCH", { title: "x" }))).toEqual([
      404,
      "task_not_found",
    ]);
    expect(await problem(await page(other, "/account/lists/mine", "DELETE"))).toEqual([404, "list_not_found"]);
    expect((await json(await page(other, "/account/tasks"))).data).toEqual([]);
  });

  it("searches with the API's full-text search", async () => {
    const user = await maxUser("page-search");
    await createTask(user.key, { title: "Café with Ana" });
    await createTask(user.key, { title: "Passport photos" });
    const found = await json(await page(user, "/account/tasks?q=cafe"));
    expect(found.data.map((t: { title: string }) => t.title)).toEqual(["Café with Ana"]);
  });

  it("creates, renames and deletes lists with the API's rules; deleting a list deletes its tasks", async () => {
    const user = await maxUser("page-lists");
    const created = await page(user, "/account/lists", "POST", { name: "Groceries" });
    expect(created.status).toBe(201);
    const list = await json(created);
    expect(await problem(await page(user, "/account/lists", "POST", { name: "GROCERIES" }))).toEqual([
      409,
      "list_exists",
    ]);
    await page(user, "/account/tasks", "POST", { title: "milk", listId: list.id });
    const renamed = await json(await page(user, `/account/lists/${list.id}`, "PATCH", { name: "Food" }));
    expect(renamed).toMatchObject({ name: "Food", openCount: 1, taskCount: 1 });
    expect((await json(await page(user, "/account/lists"))).data.map((l: { name: string }) => l.name)).toEqual([
      "Food",
    ]);
    expect((await page(user, `/account/lists/${list.id}`, "DELETE")).status).toBe(204);
    expect((await json(await rest(user, "/api/v1/tasks"))).data).toEqual([]);
    expect((await json(await rest(user, "/api/v1/lists"))).data).toEqual([]);
  });

  it("refuses another site's page (the account routes' origin policy)", async () => {
    const user = await maxUser("page-origin");
    const res = await page(user, "/account/tasks", "GET", undefined, { Origin: "https://evil.example" });
    expect(await problem(res)).toEqual([403, "forbidden_origin"]);
  });
});
