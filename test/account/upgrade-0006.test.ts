import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { migrateInOrder } from "../../src/object/migrate";
import migrations from "../../src/object/migrations/migrations";
import { call, json, maxUser } from "../helpers";

/**
 * Issue 34, upgrade without loss: an account object written by the previous release (migrations 0000–0003,
 * tasks without parent_id, priority or position) gets them from migration 0006 when the object next starts:
 * priority 4 where important, else 1; no parent; positions in each list in the order listings gave then.
 */
const M0006 = migrations.journal.entries.find((entry) => entry.tag.startsWith("0006_"))!;

/** The account's object as the previous release left it: 0006 not recorded, its columns and indexes absent. */
function backToPreviousRelease(storage: DurableObjectStorage) {
  storage.sql.exec("DELETE FROM tasks");
  storage.sql.exec("DELETE FROM __drizzle_migrations WHERE created_at = ?", M0006.when);
  storage.sql.exec("DROP INDEX tasks_parent_idx");
  storage.sql.exec("DROP INDEX tasks_position_idx");
  for (const column of ["priority", "parent_id", "position"])
    storage.sql.exec(`ALTER TABLE tasks DROP COLUMN ${column}`);
}

/** A task row as the previous release wrote it (its columns only). */
function oldTask(
  storage: DurableObjectStorage,
  id: string,
  listId: string | null,
  important: boolean,
  updatedAt: string,
) {
  storage.sql.exec(
    "INSERT INTO tasks (id, title, completed, important, list_id, updated_at, created_at) VALUES (?, ?, 0, ?, ?, ?, ?)",
    id,
    `Task ${id}`,
    important ? 1 : 0,
    listId,
    updatedAt,
    updatedAt,
  );
}

describe("object migration 0006 on an account written by the previous release", () => {
  it("gives every old task its priority, no parent and positions in the old order, and the API shows them", async () => {
    const user = await maxUser("upgrade-0006");
    const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user.accountId));
    await runInDurableObject(stub, (_instance, state) => {
      const { storage } = state;
      backToPreviousRelease(storage);
      // Listed then by (updated_at, id): in "home", c before a before b; "work" has one; one task in no list.
      oldTask(storage, "b", "home", false, "2026-01-03T00:00:00.000Z");
      oldTask(storage, "a", "home", true, "2026-01-02T00:00:00.000Z");
      oldTask(storage, "c", "home", false, "2026-01-01T00:00:00.000Z");
      oldTask(storage, "w", "work", true, "2026-01-01T00:00:00.000Z");
      oldTask(storage, "n", null, false, "2026-01-01T00:00:00.000Z");
      // What the object runs when it starts (account-object.ts): 0006, and only it.
      migrateInOrder(storage, migrations);
    });

    const byId = async (id: string) => json(await call(`/api/v1/tasks/${id}`, { token: user.key }));
    const [a, b, c, w, n] = await Promise.all(["a", "b", "c", "w", "n"].map(byId));
    expect([a.priority, b.priority, c.priority, w.priority, n.priority]).toEqual([4, 1, 1, 4, 1]);
    for (const task of [a, b, c, w, n]) expect(task.parentId).toBeUndefined();
    expect(c.position < a.position && a.position < b.position).toBe(true);

    // The keys are ones fractional-indexing builds on: a new task goes after them, a move between them.
    const created = await json(
      await call("/api/v1/tasks", { token: user.key, body: { title: "new", listId: "home" } }),
    );
    expect(created.position > b.position).toBe(true);
    const moved = await json(await call(`/api/v1/tasks/${created.id}/move`, { token: user.key, body: { after: "c" } }));
    expect(c.position < moved.position && moved.position < a.position).toBe(true);
    const home = await json(await call("/api/v1/tasks?listId=home&sort=position", { token: user.key }));
    expect(home.data.map((t: { title: string }) => t.title)).toEqual(["Task c", "new", "Task a", "Task b"]);
  });
});
