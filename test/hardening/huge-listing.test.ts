import { describe, expect, it } from "vitest";
import { accountSql, call, json, maxUser } from "../helpers";

/**
 * One answer from an account's object carries at most 32 MiB (workerd's limit on a call). A listing
 * past it, possible only with hundreds of tasks at the input limits, is refused with advice to page,
 * never a 500; a page of the same tasks works.
 */
describe("a listing larger than one call to the account's object can carry", () => {
  it("answers 400 with the fix (page with `limit`), and pages of it work", { timeout: 120_000 }, async () => {
    const user = await maxUser("huge-listing");
    // 450 tasks with 20,000-emoji notes (what the API accepts): about 37 MB of JSON in all.
    await accountSql(
      user.accountId,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 450)
       INSERT INTO tasks (id, title, notes) SELECT printf('huge-%04d', i), 'big ' || i,
         (SELECT group_concat('😀', '') FROM (WITH RECURSIVE m(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM m WHERE j < 20000) SELECT j FROM m))
       FROM n`,
    );
    const whole = await call("/api/v1/tasks", { token: user.key });
    const problem = await json(whole);
    expect([whole.status, problem.code], JSON.stringify(problem).slice(0, 300)).toEqual([400, "validation_failed"]);
    expect(problem.detail).toMatch(/limit/);
    const page = await call("/api/v1/tasks?limit=100", { token: user.key });
    expect(page.status).toBe(200);
    expect((await json(page)).data).toHaveLength(100);
  });
});
