import { describe, expect, it } from "vitest";
import { accountSql, maxUser } from "../helpers";

/** A plan step that reads a whole table of ours (`SCAN x USING INDEX` walks an index range; virtual tables answer by index). */
const fullScans = (plan: string[]) =>
  plan.filter((line) => /^SCAN (lists|tasks|l|t|o)\b(?! (USING|VIRTUAL))/.test(line));

/**
 * Lists' hops are in hops.test.ts and the list verbs' plans in domain/query-plans.test.ts; here, the
 * triggers that every task write runs in the account's object.
 */
describe("list requests", () => {
  it("keep tasks' triggers (lists and search index) on indexes too", async () => {
    const user = await maxUser("list-triggers");
    const triggers = await accountSql<{ name: string; sql: string }>(
      user.accountId,
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND (name LIKE 'lists_%' OR name LIKE 'tasks_fts_%')",
    );
    expect(triggers.length).toBe(6);
    for (const { name, sql } of triggers) {
      const body = sql.slice(sql.indexOf(" BEGIN") + 6, sql.lastIndexOf("END"));
      // Each statement of the body as the trigger runs it, with parameters for the row's values.
      for (const statement of body.split(";").filter((s) => s.trim())) {
        const parameterised = statement.replace(/\b(NEW|OLD)\.(`\w+`|rowid)/g, "?");
        const parameters = (parameterised.match(/\?/g) ?? []).map(() => null);
        const plan = (
          await accountSql<{ detail: string }>(user.accountId, `EXPLAIN QUERY PLAN ${parameterised}`, ...parameters)
        ).map((row) => row.detail);
        expect(fullScans(plan), `${name}: ${statement}\n${plan.join("\n")}`).toEqual([]);
      }
    }
  });
});
