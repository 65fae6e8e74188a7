import { describe, expect, it } from "vitest";
import { dateIn } from "../../src/domain/tasks/wall-clock";
import { call, json, maxUser } from "../helpers";

/** REST listings say what day it is for the account, as list_tasks does (issue 35, item 23). */
describe("meta.today and meta.timeZone", () => {
  it("are the account's zone and its date at serverTime, on the task and list listings", async () => {
    const user = await maxUser("today");
    // UTC+14: its date differs from UTC's for ten hours of every day, so UTC's date cannot pass by chance then.
    const timeZone = "Pacific/Kiritimati";
    const patched = await call("/account", { method: "PATCH", token: user.session, body: { timeZone } });
    expect(patched.status).toBe(200);
    for (const path of ["/api/v1/tasks", "/api/v1/tasks?limit=5", "/api/v1/lists"]) {
      const { meta } = await json(await call(path, { token: user.key }));
      expect(meta.timeZone, path).toBe(timeZone);
      expect(meta.today, path).toBe(dateIn(Date.parse(meta.serverTime), timeZone));
      expect(meta.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(dateIn(Date.parse("2026-11-27T10:00:00Z"), timeZone)).toBe("2026-11-28");
  });
});
