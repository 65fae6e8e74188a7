import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { listAll, patch } from "./support";

/** Completing a completed task stays idempotent and says so (issue 35, item 21). */
describe("completing an already completed task", () => {
  it("answers Already-Completed: true over REST, and changes nothing else", async () => {
    const user = await maxUser("already-done");
    const task = await createTask(user.key, { title: "Water plants", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const first = await patch(user.key, task.id, { completed: true });
    expect(first.headers.get("already-completed")).toBeNull();
    const done = await json(first);
    const again = await patch(user.key, task.id, { completed: true });
    expect(again.status).toBe(200);
    expect(again.headers.get("already-completed")).toBe("true");
    // Idempotent: still completed at the same moment, and no second next occurrence.
    expect(await json(again)).toMatchObject({ completed: true, completedAt: done.completedAt });
    expect((await listAll(user.key)).data).toHaveLength(2);
    // Reopened, it completes afresh.
    await patch(user.key, task.id, { completed: false });
    expect((await patch(user.key, task.id, { completed: true })).headers.get("already-completed")).toBeNull();
  });

  it("says so to the tasks page in the body it reads", async () => {
    const user = await maxUser("already-done-page");
    const task = await createTask(user.key, { title: "Call mum" });
    await patch(user.key, task.id, { completed: true });
    const res = await call(`/account/tasks/${task.id}`, {
      method: "PATCH",
      token: user.session,
      body: { completed: true },
    });
    expect(await json(res)).toMatchObject({ task: { id: task.id, completed: true }, alreadyCompleted: true });
  });

  it("is still refused for a task of another account", async () => {
    const user = await maxUser("already-done-owner");
    const other = await maxUser("already-done-other");
    const task = await createTask(user.key, { title: "Mine" });
    const res = await call(`/account/tasks/${task.id}`, {
      method: "PATCH",
      token: other.session,
      body: { completed: true },
    });
    expect([res.status, res.headers.get("already-completed")]).toEqual([404, null]);
  });
});
