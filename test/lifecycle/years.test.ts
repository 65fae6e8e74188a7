import { describe, expect, it } from "vitest";
import { call, createTask, json } from "../helpers";
import { callError, callOk, mcpClient } from "../mcp/client";
import { listAll, nextIdFrom, patch, zonedUser } from "./support";

/**
 * Dates start in the year 1900. JavaScript's Date.UTC reads the years 0–99 as 1900–1999, so
 * `0000-01-01` repeating daily used to come back as 1900-01-01; before about 1900 most time zones
 * had no standard offset either. Earlier `due`, `reminder` and UNTIL values are refused with 400.
 */
async function refused(res: Response, path: string) {
  expect(res.status).toBe(400);
  const problem = await json(res);
  expect(problem.code).toBe("validation_failed");
  expect(problem.errors).toEqual([expect.objectContaining({ path, message: expect.stringContaining("1900") })]);
}

describe("the years a date may have", () => {
  it("refuses due dates before 1900, all-day or with a time, on create and on PATCH", async () => {
    const user = await zonedUser();
    for (const due of [
      "0000-01-01",
      "0001-01-01",
      "0099-12-31",
      "1899-12-31",
      "0050-06-01T09:00:00Z",
      "1899-12-31T23:30:00-01:00",
    ]) {
      await refused(
        await call("/api/v1/tasks", { token: user.key, body: { title: "old", due, repeat: "FREQ=DAILY" } }),
        "due",
      );
    }
    const task = await createTask(user.key, { title: "now" });
    await refused(await patch(user.key, task.id, { due: "0000-01-01" }), "due");
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("refuses reminders and UNTIL before 1900", async () => {
    const user = await zonedUser();
    await refused(
      await call("/api/v1/tasks", { token: user.key, body: { title: "old", reminder: "0010-01-01T08:00:00Z" } }),
      "reminder",
    );
    await refused(
      await call("/api/v1/tasks", { token: user.key, body: { title: "old", repeat: "FREQ=DAILY;UNTIL=00000101" } }),
      "repeat",
    );
  });

  it("MCP create_task refuses them the same way", async () => {
    const user = await zonedUser();
    const client = await mcpClient(user.key);
    const error = await callError(client, "create_task", { title: "old", due: "0000-01-01" });
    expect([error.code, error.fields]).toEqual(["validation_failed", ["due"]]);
    expect(error.text).toContain("1900");
    expect((await callOk(client, "list_tasks")).count).toBe(0);
  });

  it("the first and the last years work: 1900-01-01 repeats into 1900-01-02, 9999-12-31 has no next occurrence", async () => {
    const user = await zonedUser();
    const first = await createTask(user.key, { title: "first", due: "1900-01-01", repeat: "FREQ=DAILY" });
    const next = await json(
      await call(`/api/v1/tasks/${nextIdFrom(await patch(user.key, first.id, { completed: true }))}`, {
        token: user.key,
      }),
    );
    expect(next.due).toBe("1900-01-02");
    const leap = await createTask(user.key, { title: "not a leap year", due: "1900-02-28", repeat: "FREQ=DAILY" });
    const march = await json(
      await call(`/api/v1/tasks/${nextIdFrom(await patch(user.key, leap.id, { completed: true }))}`, {
        token: user.key,
      }),
    );
    expect(march.due).toBe("1900-03-01");
    const last = await createTask(user.key, { title: "last", due: "9999-12-31T10:00:00+01:00", repeat: "FREQ=DAILY" });
    const done = await patch(user.key, last.id, { completed: true });
    expect(done.status).toBe(200);
    expect(nextIdFrom(done)).toBeUndefined();
  });
});
