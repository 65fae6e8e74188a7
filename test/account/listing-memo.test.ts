import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import type { AccountDb } from "../../src/object/context";
import { listTasks } from "../../src/object/tasks/list";
import { type Listing, memoisedListing } from "../../src/object/tasks/listing-memo";
import { call, createTask, json, maxUser } from "../helpers";

/**
 * The listing memo (src/object/tasks/listing-memo.ts) serves a listing again only while the object's SQLite
 * has not changed: every way the object writes must make the next listing read again.
 */

const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));
const dbOf = (state: DurableObjectState): AccountDb => drizzle(state.storage, { schema });
const changesOf = (state: DurableObjectState) =>
  state.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;

/** A `read` that counts its calls, so a test sees whether the memo answered or the rows were read. */
function countingRead(listing: Listing = { tasksJson: "[]", count: 0 }) {
  const read = () => {
    read.calls++;
    return listing;
  };
  read.calls = 0;
  return read;
}

const list = async (key: string, query = "") => json(await call(`/api/v1/tasks${query}`, { token: key }));
const titles = (page: { data: { title: string }[] }) => page.data.map((task) => task.title).sort();

describe("the listing memo", () => {
  it("answers the same query again while nothing was written, and reads again after a write", async () => {
    const user = await maxUser("memo-hit");
    await createTask(user.key, { title: "one" });
    await runInDurableObject(objectOf(user.accountId), (_instance, state) => {
      const db = dbOf(state);
      const read = countingRead();
      memoisedListing(db, { completed: false }, read);
      memoisedListing(db, { completed: false }, read);
      expect(read.calls).toBe(1);
      // Another query is another listing; the memo then holds that one.
      memoisedListing(db, { completed: true }, read);
      expect(read.calls).toBe(2);
      // A statement that changes no row changes nothing a listing shows.
      state.storage.sql.exec("UPDATE tasks SET title = 'never' WHERE 0");
      memoisedListing(db, { completed: true }, read);
      expect(read.calls).toBe(2);
      // Any row written, by any path: here plain SQL, not a verb.
      state.storage.sql.exec("UPDATE account SET time_zone = time_zone");
      memoisedListing(db, { completed: true }, read);
      expect(read.calls).toBe(3);
    });
  });

  it("shows every task write in the next listing: create, edit, complete, delete", async () => {
    const user = await maxUser("memo-writes");
    const first = await createTask(user.key, { title: "first" });
    const before = await list(user.key);
    // Listed twice without a write: the same tasks, and a clock read for this request.
    const again = await list(user.key);
    expect(again.data).toEqual(before.data);
    expect(again.meta.serverTime >= before.meta.serverTime).toBe(true);

    await createTask(user.key, { title: "second" });
    expect(titles(await list(user.key))).toEqual(["first", "second"]);
    await call(`/api/v1/tasks/${first.id}`, { method: "PATCH", token: user.key, body: { title: "renamed" } });
    expect(titles(await list(user.key))).toEqual(["renamed", "second"]);
    await call(`/api/v1/tasks/${first.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    expect((await list(user.key, "?completed=true")).data.map((task: { id: string }) => task.id)).toEqual([first.id]);
    await call(`/api/v1/tasks/${first.id}`, { method: "DELETE", token: user.key });
    expect(titles(await list(user.key))).toEqual(["second"]);
  });

  it("makes each page's cursor with that request's clock, and walks the pages", async () => {
    const user = await maxUser("memo-pages");
    const ids = [(await createTask(user.key, { title: "a" })).id, (await createTask(user.key, { title: "b" })).id];
    const first = await list(user.key, "?limit=1");
    const repeated = await list(user.key, "?limit=1");
    expect(repeated.data).toEqual(first.data);
    expect(repeated.meta.nextCursor).toBeDefined();
    const next = await list(user.key, `?limit=1&cursor=${encodeURIComponent(repeated.meta.nextCursor)}`);
    expect([...first.data, ...next.data].map((task: { id: string }) => task.id)).toEqual([...ids].sort());
    expect(next.meta.serverTime).toBe(repeated.meta.serverTime);
  });

  it("reads again after an alarm that purged and after a change from the control plane; an idle alarm keeps it", async () => {
    const user = await maxUser("memo-alarm");
    await createTask(user.key, { title: "one" });
    const gone = await createTask(user.key, { title: "gone long ago" });
    await runInDurableObject(objectOf(user.accountId), async (instance, state) => {
      const db = dbOf(state);
      // A tombstone past its 90 days: the alarm's retention deletes it, a write the memo must see.
      state.storage.sql.exec("UPDATE tasks SET deleted_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", gone.id);
      const read = countingRead();
      memoisedListing(db, {}, read);
      await instance.alarm();
      memoisedListing(db, {}, read);
      expect(read.calls).toBe(2);
      // Nothing left to purge: the alarm writes nothing, and the listing is served again.
      await instance.alarm();
      memoisedListing(db, {}, read);
      expect(read.calls).toBe(2);
      await instance.change({ kind: "timeZone", timeZone: "Europe/Paris" });
      memoisedListing(db, {}, read);
      expect(read.calls).toBe(3);
    });
  });

  it("never shows erased tasks, even when the count of changes comes back to the memo's after erasure", async () => {
    const user = await maxUser("memo-erase");
    await createTask(user.key, { title: "erased" });
    await runInDurableObject(objectOf(user.accountId), async (instance, state) => {
      const ctx = () => ({ db: dbOf(state), accountId: user.accountId, timeZone: "UTC" });
      expect(listTasks(ctx(), {}).count).toBe(1);
      const memoChanges = changesOf(state);
      await instance.erase(user.accountId);
      // deleteAll() opened a new connection, counting from zero: bring its count back to the memo's.
      expect(changesOf(state)).toBeLessThan(memoChanges);
      while (changesOf(state) < memoChanges) state.storage.sql.exec("UPDATE account SET time_zone = time_zone");
      expect(changesOf(state)).toBe(memoChanges);
      expect(listTasks(ctx(), {})).toMatchObject({ tasksJson: "[]", count: 0 });
    });
  });
});
