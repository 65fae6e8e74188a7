import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { createDb } from "../../src/db/client";
import { purgeExpired } from "../../src/domain/retention";
import { handleMcp } from "../../src/mcp/handler";
import { createTask, maxUser } from "../helpers";
import { probedD1 } from "../support/d1-probes";

/** SQLite's plan for a statement, one detail line per step (parameters left NULL: plans do not depend on them). */
async function planOf(sql: string): Promise<string[]> {
  const parameters = (sql.match(/\?/g) ?? []).map(() => null);
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...parameters)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

describe("the hot statements' query plans", () => {
  // Compiled statements bind through `(SELECT ?)` and the key lookup reads account and membership by
  // subqueries (see db/compiled.ts): the index must still be used, or a list would read every task.
  it("use an index for every table a task request reads, and never scan tasks or api_keys", async () => {
    const { key } = await maxUser("plans");
    const task = await createTask(key, { title: "Planned" });
    const { db, texts } = probedD1(env.DB);
    const app = createApp();
    const send = async (path: string, init: { method?: string; body?: unknown } = {}) => {
      const ctx = createExecutionContext();
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (init.body !== undefined) headers["content-type"] = "application/json";
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      const res = await app.fetch(
        new Request(`http://example.com${path}`, { method: init.method ?? "GET", headers, body }),
        { ...env, DB: db },
        ctx,
      );
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(300);
      await waitOnExecutionContext(ctx);
    };
    await send("/api/v1/tasks");
    await send("/api/v1/tasks?limit=10&completed=false");
    await send(`/api/v1/tasks?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`);
    await send("/api/v1/tasks", { method: "POST", body: { title: "Another" } });
    await send(`/api/v1/tasks/${task.id}`, { method: "PATCH", body: { title: "Renamed" } });
    const ctx = createExecutionContext();
    const mcp = await handleMcp(
      new Request("http://example.com/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_tasks", arguments: { limit: 100 } },
        }),
      }),
      { ...env, DB: db },
      ctx,
    );
    expect(mcp.status).toBe(200);
    await waitOnExecutionContext(ctx);

    const statements = [...texts].filter((sql) => /\b(tasks|api_keys)\b/.test(sql));
    // A `since` sync's tombstones: one account's deleted tasks only, not a walk of all its tasks.
    const tombstones = statements.find((sql) => /select "id", "deleted_at" from "tasks"/.test(sql));
    expect((await planOf(tombstones!)).join("\n")).toContain("tasks_account_deleted_idx");
    expect(statements.length).toBeGreaterThanOrEqual(5);
    // Every statement scoped by the key (all compiled, see db/compiled.ts) binds its values as `(SELECT ?)`:
    // a bare `?` next to a join or in a subquery in FROM makes SQLite re-plan the statement on every run.
    const keyScoped = statements.filter((sql) => sql.includes("key_hash"));
    expect(keyScoped.length).toBeGreaterThanOrEqual(5);
    for (const sql of keyScoped) expect(sql.replaceAll("(SELECT ?)", ""), sql).not.toContain("?");
    for (const sql of statements) {
      const plan = await planOf(sql);
      // "SCAN x USING INDEX" walks an index range; a bare "SCAN tasks" reads the whole table.
      const fullScans = plan.filter((line) => /^SCAN (tasks|api_keys|k)\b(?! USING)/.test(line));
      expect(fullScans, `${sql}\n${plan.join("\n")}`).toEqual([]);
      expect(
        plan.some((line) => /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/.test(line)),
        `${sql}\n${plan.join("\n")}`,
      ).toBe(true);
    }
  });

  // The tombstone index is partial (deleted_at IS NOT NULL): the purge must keep the term that lets SQLite use it.
  it("purge tombstones through the partial deleted_at index, not a scan of every task", async () => {
    const { db, texts } = probedD1(env.DB);
    await purgeExpired(createDb(db));
    const purge = [...texts].find((sql) => /delete from "tasks"/i.test(sql));
    expect(purge).toBeDefined();
    const plan = await planOf(purge!);
    expect(plan.join("\n")).toContain("tasks_deleted_at_idx");
    expect(plan.filter((line) => /^SCAN tasks\b(?! USING)/.test(line))).toEqual([]);
  });
});
