import type migrations from "./migrations/migrations";

/**
 * Runs the objects' migrations (src/object/migrations, written by drizzle-kit) that this object has not
 * run yet, in journal order, in one transaction.
 *
 * Why not drizzle's own `migrate` (drizzle-orm/durable-sqlite/migrator): it reads the greatest
 * `created_at` it has recorded and runs only the entries whose `when` is greater. A migration generated
 * on a branch before another one that merged first carries an older `when` and is skipped without a
 * word; our journal has that already (0002 and 0003 are older than 0001). Here an entry's `when` is its
 * identity, not its order: every entry whose `when` is not recorded runs, in the order of the journal.
 * So a `when` of a shipped migration must never change (every object recorded it), and no two entries
 * may share one (test/account/migration-order.test.ts holds both).
 *
 * It keeps drizzle's table, `__drizzle_migrations`, and writes its rows as drizzle did (an empty hash,
 * `created_at` = the entry's `when`), so objects made under drizzle's migrator carry on where they are.
 */
export function migrateInOrder(storage: DurableObjectStorage, { journal, migrations: files }: typeof migrations) {
  storage.transactionSync(() => {
    const { sql } = storage;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)",
    );
    const applied = new Set(
      sql
        .exec<{ created_at: number }>("SELECT created_at FROM __drizzle_migrations")
        .toArray()
        .map((row) => Number(row.created_at)),
    );
    for (const entry of journal.entries) {
      if (applied.has(entry.when)) continue;
      const file = files[`m${String(entry.idx).padStart(4, "0")}`];
      if (file === undefined) throw new Error(`account object migration ${entry.tag}: file missing`);
      for (const statement of file.split("--> statement-breakpoint")) if (statement.trim()) sql.exec(statement);
      sql.exec("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('', ?)", entry.when);
    }
  });
}

/** Whether the object's SQLite has any table of its own (a read: an empty object stays empty). */
export const hasTables = (storage: DurableObjectStorage) =>
  storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' LIMIT 1").toArray()
    .length > 0;
