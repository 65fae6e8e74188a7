import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";
import { patch } from "./support";

/** A weekly BYDAY that leaves out the due's weekday moves the first occurrence (issue 35, item 18). */
describe("a weekly rule that does not match the due date", () => {
  it("moves an all-day due to the first day BYDAY allows, over REST", async () => {
    const user = await maxUser("first-rest");
    // 2026-12-01 is a Tuesday: every Monday starts on Monday 7 December.
    const task = await createTask(user.key, { title: "Gym", due: "2026-12-01", repeat: "FREQ=WEEKLY;BYDAY=MO" });
    expect(task.due).toBe("2026-12-07");
    // A matching day stays.
    const wed = await createTask(user.key, { title: "Swim", due: "2026-12-02", repeat: "FREQ=WEEKLY;BYDAY=MO,WE" });
    expect(wed.due).toBe("2026-12-02");
    // Other frequencies start at due as given.
    const monthly = await createTask(user.key, { title: "Rent", due: "2026-12-01", repeat: "FREQ=MONTHLY;BYDAY=1MO" });
    expect(monthly.due).toBe("2026-12-01");
  });

  it("keeps the local time and the reminder's distance, across a DST change, and on PATCH", async () => {
    const user = await maxUser("first-zone");
    await call("/account", { method: "PATCH", token: user.session, body: { timeZone: "Europe/Berlin" } });
    // Friday 2027-03-26 18:00 CET; the first Monday is 29 March, after the change to CEST.
    const task = await createTask(user.key, {
      title: "Gym",
      due: "2027-03-26T18:00:00+01:00",
      reminder: "2027-03-26T17:30:00+01:00",
      repeat: "FREQ=WEEKLY;BYDAY=MO",
    });
    expect([task.due, task.reminder]).toEqual(["2027-03-29T18:00:00+02:00", "2027-03-29T17:30:00+02:00"]);
    // PATCH of the rule moves an existing due; a PATCH of only the title moves nothing.
    const plain = await createTask(user.key, { title: "Yoga", due: "2027-03-23" });
    const ruled = await json(await patch(user.key, plain.id, { repeat: "FREQ=WEEKLY;BYDAY=TH" }));
    expect(ruled.due).toBe("2027-03-25");
    expect((await json(await patch(user.key, plain.id, { title: "Yoga!" }))).due).toBe("2027-03-25");
  });

  it("moves it over MCP too, visibly in the result", async () => {
    const user = await maxUser("first-mcp");
    const client = await mcpClient(user.key);
    const { task } = await callOk(client, "create_task", {
      title: "Standup",
      due: "2026-12-05",
      repeat: "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    });
    // Saturday → Monday.
    expect(task.due).toBe("2026-12-07");
  });
});
