import { describe, expect, it } from "vitest";
import { accountSql, call, createTask, json } from "../helpers";
import { listAll, patch, zonedUser } from "./support";

type Page = {
  data: { id: string; title: string; completed: boolean; listId?: string }[];
  meta: { count: number; serverTime: string; nextCursor?: string; deleted?: { id: string }[] };
};

/** Inserts `n` tasks for an account in one statement, with distinct, increasing updatedAt values. */
async function seed(accountId: string, n: number, title = "Seeded") {
  const prefix = crypto.randomUUID().slice(0, 8);
  await accountSql(
    accountId,
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO tasks (id, title, completed, list_id, updated_at)
     SELECT printf('%s-%06d', ?, i), ? || ' ' || i, i % 2, CASE WHEN i % 3 = 0 THEN 'three' END,
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d seconds', ? - i)) FROM n`,
    n,
    prefix,
    title,
    n + 10,
  );
}

async function page(key: string, query: string): Promise<Page> {
  const res = await call(`/api/v1/tasks?${query}`, { token: key });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return json(res);
}

/** Follows nextCursor to the end, running `between` after each page. */
async function walk(key: string, query: string, between: (pageNo: number) => Promise<void> = async () => {}) {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(key, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(p);
    cursor = p.meta.nextCursor;
    await between(pages.length);
  } while (cursor);
  return pages;
}

describe("pagination", () => {
  it("lists all 10,000 tasks without limit, and the same 10,000 in pages of 500", async () => {
    const user = await zonedUser();
    await seed(user.accountId, 10_000);
    const all = await listAll(user.key);
    expect(all.meta.count).toBe(10_000);
    expect(all.meta.nextCursor).toBeUndefined();
    const pages = await walk(user.key, "limit=500");
    expect(pages).toHaveLength(20);
    expect(pages.slice(0, -1).every((p) => p.meta.count === 500 && p.meta.nextCursor)).toBe(true);
    expect(pages.at(-1)!.meta.nextCursor).toBeUndefined();
    const ids = pages.flatMap((p) => p.data.map((t) => t.id));
    expect(new Set(ids).size).toBe(10_000);
    expect(new Set(ids)).toEqual(new Set(all.data.map((t: { id: string }) => t.id)));
    expect(new Set(pages.map((p) => p.meta.serverTime)).size).toBe(1);
  });

  it("neither skips nor repeats a task when tasks change between pages", async () => {
    const user = await zonedUser();
    await seed(user.accountId, 30);
    const before = (await listAll(user.key)).data.map((t: { id: string }) => t.id).sort() as string[];
    const [seen, unseen, doomed] = [before[2]!, before[25]!, before[27]!];
    let created = "";
    const pages = await walk(user.key, "limit=10", async (n) => {
      if (n !== 1) return;
      await patch(user.key, seen, { title: "edited after it was sent" });
      await patch(user.key, unseen, { title: "edited before it was sent" });
      await call(`/api/v1/tasks/${doomed}`, { method: "DELETE", token: user.key });
      created = (await createTask(user.key, { title: "created while paging" })).id;
    });
    const ids = pages.flatMap((p) => p.data.map((t) => t.id));
    expect(ids.length).toBe(new Set(ids).size);
    for (const id of before.filter((id) => id !== doomed)) expect(ids).toContain(id);
    expect(pages.flatMap((p) => p.data).find((t) => t.id === unseen)?.title).toBe("edited before it was sent");
    // The next sync from the listing's serverTime brings every change made while paging.
    const serverTime = pages[0]!.meta.serverTime;
    const delta = await page(user.key, `since=${encodeURIComponent(serverTime)}`);
    expect(delta.data.map((t) => t.id).sort()).toEqual([seen, unseen, created].sort());
    expect(delta.meta.deleted?.map((d) => d.id)).toEqual([doomed]);
  });

  it("pages a since window without skips or repeats while it changes", async () => {
    const user = await zonedUser();
    await seed(user.accountId, 20);
    const start = (await listAll(user.key)).meta.serverTime;
    const changed: string[] = [];
    for (let i = 0; i < 12; i++) changed.push((await createTask(user.key, { title: `in window ${i}` })).id);
    const pages = await walk(user.key, `since=${encodeURIComponent(start)}&limit=5`, async (n) => {
      if (n === 1) await patch(user.key, changed[1]!, { title: "again" });
      if (n === 1) await patch(user.key, changed[10]!, { title: "again" });
    });
    const ids = pages.flatMap((p) => p.data.map((t) => t.id));
    expect(ids.length).toBe(new Set(ids).size);
    expect(new Set(ids)).toEqual(new Set(changed));
  });

  it("filters by completed and listId, with and without limit", async () => {
    const user = await zonedUser();
    await seed(user.accountId, 60);
    const open = await listAll(user.key, "?completed=false");
    expect(open.meta.count).toBe(30);
    expect(open.data.every((t: { completed: boolean }) => !t.completed)).toBe(true);
    const three = await listAll(user.key, "?listId=three&completed=true");
    expect(three.meta.count).toBe(10);
    expect(three.data.every((t: { listId: string; completed: boolean }) => t.listId === "three" && t.completed)).toBe(
      true,
    );
    const paged = await walk(user.key, "listId=three&limit=7");
    expect(paged.flatMap((p) => p.data)).toHaveLength(20);
  });

  it("refuses a limit outside 1..500 and a cursor it did not issue", async () => {
    const user = await zonedUser();
    for (const query of ["limit=0", "limit=501", "limit=abc", "cursor=bm9wZQ"]) {
      const res = await call(`/api/v1/tasks?${query}`, { token: user.key });
      expect(res.status).toBe(400);
      expect((await json(res)).code).toBe("validation_failed");
    }
  });
});
