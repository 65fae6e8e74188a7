import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { migrateInOrder } from "../../src/object/migrate";
import migrations from "../../src/object/migrations/migrations";
import { call, createTask, json, maxUser } from "../helpers";

/**
 * Upgrade without loss (issue 34, item 10): an account object the previous release wrote (before migration 0005)
 * gets labels on its next start, and its tasks come back with `labels: []`, unchanged otherwise.
 */
const LABELS_MIGRATION = migrations.journal.entries.find((e) => e.tag.endsWith("_labels"))!;

describe("the labels migration", () => {
  it("gives the tasks of an object from the previous release no labels, and labels work after it", async () => {
    const user = await maxUser("labels-upgrade");
    const old = await createTask(user.key, { title: "from before", notes: "kept" });
    const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user.accountId));
    await runInDurableObject(stub, (_instance, state) => {
      const { storage } = state;
      // The schema as the previous release left it: no labels tables, triggers or column, 0005 not recorded.
      for (const trigger of ["on_insert", "on_update", "on_delete", "on_label_delete"])
        storage.sql.exec(`DROP TRIGGER task_labels_${trigger}`);
      storage.sql.exec("DROP TABLE task_labels");
      storage.sql.exec("DROP TABLE labels");
      storage.sql.exec("ALTER TABLE tasks DROP COLUMN labels");
      storage.sql.exec("DELETE FROM __drizzle_migrations WHERE created_at = ?", LABELS_MIGRATION.when);
      expect(storage.sql.exec("SELECT * FROM tasks").columnNames).not.toContain("labels");
      migrateInOrder(storage, migrations);
    });
    const task = await json(await call(`/api/v1/tasks/${old.id}`, { token: user.key }));
    expect(task).toEqual({ ...old, labels: [] });
    const labelled = await createTask(user.key, { title: "after", labels: ["new"] });
    expect(labelled.labels).toEqual(["new"]);
    const listed = await json(await call("/api/v1/tasks?label=new", { token: user.key }));
    expect(listed.data.map((t: { id: string }) => t.id)).toEqual([labelled.id]);
  });
});
