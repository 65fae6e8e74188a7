import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { describe, expect, it } from "vitest";
import { migrateInOrder } from "../../src/object/migrate";
import migrations from "../../src/object/migrations/migrations";

/**
 * The objects' migrations run in journal order, each exactly once (src/object/migrate.ts). A journal
 * entry's `when` is what every object recorded of it: it must be unique and never change.
 */

/** The `when` of every migration shipped so far, as objects recorded it. Append a new entry here; never edit one. */
const SHIPPED: [tag: string, when: number][] = [
  ["0000_tables", 1795634344922],
  ["0001_lists_and_search", 1795634349337],
  // Generated on a branch before 0001 merged: older than 0001, which drizzle's own migrator skipped.
  ["0002_events", 1795632813110],
  ["0003_connection_generation", 1795635731825],
  ["0004_webhook_secret_rotation", 1795771754014],
  ["0005_labels", 1795771416410],
  ["0006_subtasks_priority_position", 1795771727664],
  ["0007_email_reminders", 1795775772682],
  ["0008_web_push", 1795783752771],
];

type Migrations = typeof migrations;
/** An object with every migration run, as sign-up's `init` leaves one (a new object has no tables until then). */
const scratch = async () => {
  const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(`migration-order-${crypto.randomUUID()}`));
  await runInDurableObject(stub, (_instance, state) => migrateInOrder(state.storage, migrations));
  return stub;
};
const recorded = (storage: DurableObjectStorage) =>
  storage.sql
    .exec<{ at: number }>("SELECT created_at AS at FROM __drizzle_migrations ORDER BY rowid")
    .toArray()
    .map((row) => Number(row.at));
const tables = (storage: DurableObjectStorage) =>
  storage.sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'scratch_%' ORDER BY name",
    )
    .toArray()
    .map((row) => row.name);

describe("the objects' migration journal", () => {
  it("has every entry's file, in index order, each with a `when` no other entry has", () => {
    const { entries } = migrations.journal;
    entries.forEach((entry, position) => {
      expect(entry.idx, entry.tag).toBe(position);
      expect(entry.tag.slice(0, 5)).toBe(`${String(position).padStart(4, "0")}_`);
      expect(typeof migrations.migrations[`m${entry.tag.slice(0, 4)}`], entry.tag).toBe("string");
    });
    expect(new Set(entries.map((entry) => entry.when)).size).toBe(entries.length);
  });

  it("keeps the `when` of every shipped migration, and only appends", () => {
    const shipped = migrations.journal.entries.slice(0, SHIPPED.length).map((e) => [e.tag, e.when]);
    expect(shipped).toEqual(SHIPPED);
    expect(migrations.journal.entries.length, "a new migration: add it to SHIPPED").toBe(SHIPPED.length);
  });
});

describe("migrateInOrder", () => {
  it("runs an entry older than one already run, which drizzle's migrator skips, and runs nothing twice", async () => {
    const first: Migrations = {
      journal: { entries: [{ idx: 0, when: 2000, tag: "0000_a", breakpoints: true }] },
      migrations: { m0000: "CREATE TABLE scratch_a (x);" },
    };
    // Merged later, generated earlier: its `when` is older than the one the object ran.
    const merged: Migrations = {
      journal: { entries: [...first.journal.entries, { idx: 1, when: 1000, tag: "0001_b", breakpoints: true }] },
      migrations: {
        ...first.migrations,
        m0001: "CREATE TABLE scratch_b (x);--> statement-breakpoint\nCREATE TABLE scratch_c (x);",
      },
    };
    await runInDurableObject(await scratch(), async (_instance, state) => {
      const { storage } = state;
      storage.sql.exec("DELETE FROM __drizzle_migrations");
      migrateInOrder(storage, first);
      await migrate(drizzle(storage), merged);
      expect(tables(storage)).toEqual(["scratch_a"]);

      migrateInOrder(storage, merged);
      expect(tables(storage)).toEqual(["scratch_a", "scratch_b", "scratch_c"]);
      // Run again (every start of the object): a second CREATE TABLE would throw.
      migrateInOrder(storage, merged);
      expect(recorded(storage)).toEqual([2000, 1000]);
    });
  });

  it("takes over an object made under drizzle's migrator: runs what it skipped, and nothing it ran", async () => {
    await runInDurableObject(await scratch(), async (_instance, state) => {
      const { storage } = state;
      // Every shipped migration recorded as drizzle wrote them: nothing runs again (a second run would throw).
      migrateInOrder(storage, migrations);
      expect(recorded(storage)).toEqual(SHIPPED.map(([, when]) => when));
      // An object whose 0003 drizzle skipped (older than 0001, the newest it had run): 0003 runs now.
      storage.sql.exec("DELETE FROM __drizzle_migrations WHERE created_at = ?", SHIPPED[3]![1]);
      storage.sql.exec("ALTER TABLE connections DROP COLUMN live_generation");
      migrateInOrder(storage, migrations);
      const [connections] = storage.sql
        .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'connections'")
        .toArray();
      expect(connections?.sql).toMatch(/live_generation/);
      expect(recorded(storage).sort()).toEqual(SHIPPED.map(([, when]) => when).sort());
    });
  });
});
