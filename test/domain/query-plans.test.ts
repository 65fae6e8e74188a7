import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import { listLists } from "../../src/object/lists/service";
import { purgeAccount } from "../../src/object/retention";
import { listTasks } from "../../src/object/tasks/list";
import { createTask, updateTask } from "../../src/object/tasks/write";
import { maxUser } from "../helpers";

/**
 * The verbs' statements in an account's object, each planned by SQLite: every table a task request reads
 * is reached through an index, never a scan of all the account's tasks.
 */
function plansOf(accountId: string, run: (ctx: Parameters<typeof listTasks>[0]) => void) {
  return runInDurableObject(env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId)), (_instance, state) => {
    const statements: { sql: string; params: unknown[] }[] = [];
    const db = drizzle(state.storage, {
      schema,
      logger: { logQuery: (sql, params) => statements.push({ sql, params }) },
    });
    run({ db, timeZone: "UTC" });
    return statements
      .filter(({ sql }) => /^(select|update|delete)/i.test(sql) && /"tasks"|"lists"/.test(sql))
      .map(({ sql, params }) => ({
        sql,
        plan: state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...(params as SqlStorageValue[]))
          .toArray()
          .map((row) => row.detail),
      }));
  });
}

describe("the verbs' query plans in an account's object", () => {
  it("use an index for listings, syncs, searches, writes and list counts; never a scan of tasks", async () => {
    const user = await maxUser("plans");
    const since = new Date(Date.now() - 60_000).toISOString();
    const plans = await plansOf(user.accountId, (ctx) => {
      const { task } = createTask(ctx, { input: { title: "Planned milk", listId: "errands" } });
      updateTask(ctx, { id: task.id, patch: { title: "Renamed milk" } });
      listTasks(ctx, { limit: 10, completed: false });
      listTasks(ctx, { since });
      listTasks(ctx, { q: "milk", listId: "errands" });
      listLists(ctx, { since });
      purgeAccount(ctx.db);
    });
    expect(plans.length).toBeGreaterThanOrEqual(8);
    for (const { sql, plan } of plans) {
      // "SCAN x USING INDEX" walks an index range; a bare "SCAN tasks" reads the whole table. The whole
      // listing (no filter) is the one statement that must read every live task, by its order's index.
      const fullScans = plan.filter((line) => /^SCAN (tasks|lists)\b(?! USING)/.test(line));
      expect(fullScans, `${sql}\n${plan.join("\n")}`).toEqual([]);
    }
    // A `since` sync's tombstones: the deleted tasks only, through the partial index.
    const tombstones = plans.find(({ sql }) => /select "id", "deleted_at" from "tasks"/.test(sql));
    expect(tombstones?.plan.join("\n")).toContain("tasks_deleted_at_idx");
    // The purge keeps the term that lets SQLite use the partial tombstone index.
    const purge = plans.find(({ sql }) => /^delete from "tasks"/i.test(sql));
    expect(purge?.plan.join("\n")).toContain("tasks_deleted_at_idx");
  });
});
