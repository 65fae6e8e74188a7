import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, maxUser } from "../helpers";
import { planOf, probe } from "../support/d1-probes";

/** A plan step that reads a whole table of ours (`SCAN x USING INDEX` walks an index range; virtual tables answer by index). */
const fullScans = (plan: string[]) =>
  plan.filter((line) => /^SCAN (lists|tasks|accounts|api_keys|l|t|o|k)\b(?! (USING|VIRTUAL))/.test(line));

describe("list requests", () => {
  it("are one D1 round trip each, the key's lookup inside; only a refused write pays a second", async () => {
    const user = await maxUser("list-trips");
    // Let the first request's lastUsedAt refresh settle, so only the requests below are counted.
    await call("/api/v1/lists", { token: user.key });
    const created = await probe("/api/v1/lists", user.key, { method: "POST", body: { name: "One trip" } });
    expect([created.status, created.trips, created.statements]).toEqual([201, 1, 1]);
    expect(created.body).not.toHaveProperty("verdict");
    const id = created.body.id as string;
    const listed = await probe("/api/v1/lists", user.key);
    expect([listed.status, listed.body.meta.count, listed.trips, listed.statements]).toEqual([200, 1, 1, 1]);
    const since = await probe(`/api/v1/lists?since=${encodeURIComponent(listed.body.meta.serverTime)}`, user.key);
    // The lists and the tombstones.
    expect([since.status, since.trips, since.statements]).toEqual([200, 1, 2]);
    const renamed = await probe(`/api/v1/lists/${id}`, user.key, { method: "PATCH", body: { name: "Renamed" } });
    expect([renamed.status, renamed.body.name, renamed.trips, renamed.statements]).toEqual([200, "Renamed", 1, 1]);
    // A task that names a new list creates it by trigger, in the task's own statement.
    const task = await probe("/api/v1/tasks", user.key, { method: "POST", body: { title: "x", listId: "by-trigger" } });
    expect([task.status, task.trips, task.statements]).toEqual([201, 1, 1]);
    const clash = await probe("/api/v1/lists", user.key, { method: "POST", body: { name: "renamed" } });
    // Nothing inserted: the lookup, the insert again and the clash check tell 409 from 401/403.
    expect([clash.status, clash.body.code, clash.trips, clash.statements]).toEqual([409, "list_exists", 2, 1 + 3]);
    const missing = await probe("/api/v1/lists/nope", user.key, { method: "PATCH", body: { name: "x" } });
    expect([missing.status, missing.body.code, missing.trips]).toEqual([404, "list_not_found", 2]);
    // The lookup, the list's tombstone and its tasks' tombstones, in one batch.
    const deleted = await probe("/api/v1/lists/by-trigger", user.key, { method: "DELETE" });
    expect([deleted.status, deleted.trips, deleted.statements]).toEqual([204, 1, 3]);
  });

  it("read lists and count their tasks through indexes: no statement scans a table", async () => {
    const user = await maxUser("list-plans");
    await call("/api/v1/tasks", { token: user.key, body: { title: "a", listId: "home" } });
    const requests = [
      await probe("/api/v1/lists", user.key),
      await probe(`/api/v1/lists?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`, user.key),
      await probe("/api/v1/lists", user.key, { method: "POST", body: { name: "Plans" } }),
      await probe("/api/v1/lists", user.key, { method: "POST", body: { name: "plans" } }),
      await probe("/api/v1/lists/home", user.key, { method: "PATCH", body: { name: "Home" } }),
      await probe("/api/v1/lists/home", user.key, { method: "DELETE" }),
    ];
    const statements = [...new Set(requests.flatMap((r) => r.texts))].filter((sql) => /\blists\b/.test(sql));
    expect(statements.length).toBeGreaterThanOrEqual(6);
    for (const sql of statements) {
      const plan = await planOf(sql);
      expect(fullScans(plan), `${sql}\n${plan.join("\n")}`).toEqual([]);
      if (sql.includes("t.list_id"))
        expect(plan.join("\n"), sql).toContain("USING COVERING INDEX tasks_account_list_idx");
    }
  });

  it("keep tasks' triggers (lists and search index) on indexes too", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND (name LIKE 'lists_%' OR name LIKE 'tasks_fts_%')",
    ).all<{ name: string; sql: string }>();
    expect(results.length).toBe(6);
    for (const { name, sql } of results) {
      const body = sql.slice(sql.indexOf(" BEGIN") + 6, sql.lastIndexOf("END"));
      // Each statement of the body as the trigger runs it, with parameters for the row's values.
      for (const statement of body.split(";").filter((s) => s.trim())) {
        const plan = await planOf(statement.replace(/\b(NEW|OLD)\.(`\w+`|rowid)/g, "?"));
        expect(fullScans(plan), `${name}: ${statement}\n${plan.join("\n")}`).toEqual([]);
      }
    }
  });
});
