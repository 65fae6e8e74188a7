import { describe, expect, it } from "vitest";
import { type AccountCaller, runVerb } from "../../src/control/caller";
import { call, createTask, json } from "../helpers";

const completeTask = (caller: AccountCaller, id: string) => runVerb(caller, "completeTask", { id });
import { listAll, nextIdFrom, patch, zonedUser } from "./support";

describe("completing a repeating task", () => {
  it("PATCH completed:true completes it, clears repeat and creates the next occurrence in one step", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, {
      title: "Pay rent",
      notes: "IBAN in notes",
      listId: "home",
      important: true,
      due: "2026-01-31",
      reminder: "2026-01-30T18:00:00Z",
      repeat: "FREQ=MONTHLY",
      labels: ["bills"],
    });
    const res = await patch(user.key, task.id, { completed: true });
    expect(res.status).toBe(200);
    const done = await json(res);
    expect(done).toMatchObject({ id: task.id, completed: true, due: "2026-01-31" });
    expect(done.repeat).toBeUndefined();
    const nextId = nextIdFrom(res);
    expect(nextId).toBeTruthy();
    const next = await json(await call(`/api/v1/tasks/${nextId}`, { token: user.key }));
    expect(next).toEqual({
      id: nextId,
      title: "Pay rent",
      notes: "IBAN in notes",
      listId: "home",
      important: true,
      completed: false,
      due: "2026-03-31",
      reminder: "2026-03-30T18:00:00+00:00",
      repeat: "FREQ=MONTHLY",
      labels: ["bills"],
      updatedAt: next.updatedAt,
    });
    expect((await listAll(user.key)).data).toHaveLength(2);
  });

  it("complete_task's verb returns the next occurrence too", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Leap day", due: "2024-02-29", repeat: "FREQ=YEARLY" });
    const { task: done, next } = await completeTask(user.caller, task.id);
    expect(done).toMatchObject({ completed: true });
    expect(done.repeat).toBeUndefined();
    expect(next).toMatchObject({ title: "Leap day", due: "2028-02-29", repeat: "FREQ=YEARLY", completed: false });
  });

  it("weekly BYDAY=MO,WE,FR advances Friday to Monday", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Gym", due: "2026-06-05", repeat: "FREQ=WEEKLY;BYDAY=MO,WE,FR" });
    const { next } = await completeTask(user.caller, task.id);
    expect(next?.due).toBe("2026-06-08");
  });

  it("daily at 09:00 Europe/Berlin stays at 09:00 local across both DST changes", async () => {
    const user = await zonedUser("Europe/Berlin");
    for (const [due, expected] of [
      ["2026-03-28T09:00:00+01:00", "2026-03-29T09:00:00+02:00"],
      ["2026-10-24T09:00:00+02:00", "2026-10-25T09:00:00+01:00"],
    ]) {
      const task = await createTask(user.key, { title: "Standup", due, reminder: due, repeat: "FREQ=DAILY" });
      const res = await patch(user.key, task.id, { completed: true });
      const next = await json(await call(`/api/v1/tasks/${nextIdFrom(res)}`, { token: user.key }));
      expect(next).toMatchObject({ due: expected, reminder: expected });
    }
  });

  it("uses the account's time zone as set by PATCH /account", async () => {
    const user = await zonedUser("America/New_York");
    const account = await json(await call("/account", { token: user.session }));
    expect(account.timeZone).toBe("America/New_York");
    // 2026-11-01 is the US change: 09:00 EDT (-04:00) then 09:00 EST (-05:00).
    const task = await createTask(user.key, { title: "Walk", due: "2026-10-31T09:00:00-04:00", repeat: "FREQ=DAILY" });
    const res = await patch(user.key, task.id, { completed: true });
    const next = await json(await call(`/api/v1/tasks/${nextIdFrom(res)}`, { token: user.key }));
    expect(next.due).toBe("2026-11-01T09:00:00-05:00");
  });

  it("COUNT=2 yields exactly one more occurrence", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Twice", due: "2026-06-01", repeat: "FREQ=DAILY;COUNT=2" });
    const first = await completeTask(user.caller, task.id);
    expect(first.next).toMatchObject({ due: "2026-06-02", repeat: "FREQ=DAILY;COUNT=1" });
    const second = await completeTask(user.caller, first.next!.id);
    expect(second.next).toBeUndefined();
    expect(second.task.repeat).toBeUndefined();
    expect((await listAll(user.key)).data).toHaveLength(2);
  });

  it("UNTIL in the past completes without a next occurrence", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Over", due: "2026-06-01", repeat: "FREQ=DAILY;UNTIL=20260301" });
    const res = await patch(user.key, task.id, { completed: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("Link")).toBeNull();
    expect((await json(res)).repeat).toBeUndefined();
    expect((await listAll(user.key)).data).toHaveLength(1);
  });

  it("completing twice, or reopening and completing again, spawns only once", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Water plants", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const nextId = nextIdFrom(await patch(user.key, task.id, { completed: true }));
    expect(nextId).toBeTruthy();
    expect(nextIdFrom(await patch(user.key, task.id, { completed: true }))).toBeUndefined();
    // A retried completion returns the occurrence the first one created, and creates none.
    expect((await completeTask(user.caller, task.id)).next?.id).toBe(nextId);
    await patch(user.key, task.id, { completed: false });
    expect(nextIdFrom(await patch(user.key, task.id, { completed: true }))).toBeUndefined();
    expect((await listAll(user.key)).data).toHaveLength(2);
  });

  it("parallel completions of one task create one next occurrence", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Race", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const results = await Promise.all(Array.from({ length: 5 }, () => completeTask(user.caller, task.id)));
    // Each answer names the one next occurrence: the losers see the winner's, as a retry would.
    expect(new Set(results.map((r) => r.next?.id)).size).toBe(1);
    expect((await listAll(user.key)).data).toHaveLength(2);
  });

  it("without due, the completion day is the base", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Daily log", repeat: "FREQ=DAILY" });
    const { next } = await completeTask(user.caller, task.id);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(next?.due).toBe(tomorrow);
  });

  it("a patch that completes and edits at once carries the edit into the next occurrence", async () => {
    const user = await zonedUser();
    const task = await createTask(user.key, { title: "Old", due: "2026-06-01", repeat: "FREQ=DAILY" });
    const res = await patch(user.key, task.id, { completed: true, title: "New" });
    const next = await json(await call(`/api/v1/tasks/${nextIdFrom(res)}`, { token: user.key }));
    expect(next).toMatchObject({ title: "New", due: "2026-06-02" });
  });

  it("refuses a repeat rule that can never occur", async () => {
    const user = await zonedUser();
    const res = await call("/api/v1/tasks", {
      token: user.key,
      body: { title: "x", repeat: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].path).toBe("repeat");
  });
});
