import { describe, expect, it } from "vitest";
import { CYCLE_DAYS, parseRule, searchNextDay } from "../../src/domain/tasks/occurrences";
import { nextOccurrence } from "../../src/domain/tasks/recurrence";
import { call, createTask, json, maxUser } from "../helpers";
import { rpc, rpcResult, toolErrorOf } from "../mcp/client";
import { NEVER_RULES, WORST_ACCEPTED_RULES } from "./arbitraries";

/**
 * Repeat rules that cost CPU: a rule that can never occur is refused at validation, and the work of
 * finding a next occurrence is bounded for every rule that is accepted (occurrences.ts: at most one
 * 400-year cycle of days). Before, completing such a rule searched until the year 9999: 0.2 s to
 * over a second of CPU per completion.
 */
const nextIdFrom = (res: Response) =>
  /<\/api\/v1\/tasks\/([^>]+)>; rel="next-occurrence"/.exec(res.headers.get("Link") ?? "")?.[1];

describe("repeat rules that could cost CPU", () => {
  it("refuses every rule that never occurs with 400 validation_failed naming repeat, on POST, PATCH and MCP", async () => {
    const user = await maxUser("never");
    const task = await createTask(user.key, { title: "target" });
    for (const repeat of NEVER_RULES) {
      for (const res of [
        await call("/api/v1/tasks", { token: user.key, body: { title: "never", due: "2026-01-01", repeat } }),
        await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { repeat } }),
      ]) {
        expect(res.status, repeat).toBe(400);
        const problem = await json(res);
        expect(problem.code).toBe("validation_failed");
        expect(problem.errors, repeat).toEqual([{ path: "repeat", message: expect.stringMatching(/never occur/) }]);
      }
      const body = await rpcResult(
        await rpc(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "create_task", arguments: { title: "never", repeat } },
          },
          { token: user.key },
        ),
      );
      const error = toolErrorOf(body.result);
      expect([error.code, error.fields], repeat).toEqual(["validation_failed", ["repeat"]]);
    }
    expect((await json(await call("/api/v1/tasks", { token: user.key }))).data).toHaveLength(1);
  });

  it("keeps rare rules: 29 February every 4 to 8 years, a Monday 29 February every 28 to 40", async () => {
    const user = await maxUser("rare");
    for (const [due, repeat, expected] of [
      ["2096-02-29", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2104-02-29"],
      ["2096-02-29", "FREQ=YEARLY", "2104-02-29"],
      ["2045-01-01", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", "2072-02-29"],
      ["2026-01-01", "FREQ=MONTHLY;BYDAY=5MO", "2026-03-30"],
    ]) {
      const task = await createTask(user.key, { title: "rare", due, repeat });
      const res = await call(`/api/v1/tasks/${task.id}`, {
        method: "PATCH",
        token: user.key,
        body: { completed: true },
      });
      expect(res.status).toBe(200);
      const next = await json(await call(`/api/v1/tasks/${nextIdFrom(res)}`, { token: user.key }));
      expect(next.due, repeat).toBe(expected);
    }
  });

  it("finds the next occurrence of the worst accepted rules within one 400-year cycle of days, or ends the series", () => {
    // The bound is the work, counted in days looked at, not in milliseconds: a timed assertion fails on a
    // loaded machine and says nothing on a fast one. Before the bound, a search walked until 9999-12-31.
    for (const { due, repeat } of WORST_ACCEPTED_RULES) {
      const firstDay = Math.floor(Date.parse(due.slice(0, 10)) / 86_400_000);
      const { day, steps } = searchNextDay(parseRule(repeat), firstDay);
      expect(steps, `${repeat} from ${due}`).toBeLessThanOrEqual(CYCLE_DAYS);
      if (day !== null) expect(day, repeat).toBeGreaterThan(firstDay);
      expect(() => nextOccurrence({ due, repeat }, "Europe/Berlin", new Date())).not.toThrow();
    }
  });

  it("completes the worst accepted rules over HTTP", async () => {
    const user = await maxUser("worst");
    // Their cost is bounded by the search above (and measured by `npm run bench`), not timed here.
    for (const { due, repeat } of WORST_ACCEPTED_RULES) {
      const task = await createTask(user.key, { title: "worst", due, repeat });
      const res = await call(`/api/v1/tasks/${task.id}`, {
        method: "PATCH",
        token: user.key,
        body: { completed: true },
      });
      expect(res.status, `${repeat} from ${due}`).toBe(200);
      expect((await json(res)).completed).toBe(true);
    }
  });
});
