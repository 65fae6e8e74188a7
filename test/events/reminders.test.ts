import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { accountSql, call, createTask, grant, json, maxUser } from "../helpers";
import { createWebhook, receiver, runAlarm, runAlarmAt, verified } from "./support";

let restore = () => {};
afterEach(() => restore());

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function hooked() {
  const user = await maxUser("remind");
  const hook = await createWebhook(user.key, { url: "http://127.0.0.1:9/r", events: ["task.reminder"] });
  const r = receiver();
  restore = r.restore;
  // The alarm now, or at `at` (ms): a reminder's time without sleeping until it.
  const fired = async (at?: number) => {
    await (at === undefined ? runAlarm(user.accountId) : runAlarmAt(user.accountId, at));
    return r.received.map((request) => verified(hook.secret, request));
  };
  return { user, fired };
}

const alarmOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));
const patch = (key: string, id: string, body: object) =>
  call(`/api/v1/tasks/${id}`, { method: "PATCH", token: key, body });

describe("reminders", () => {
  it("fires task.reminder once at its time, and sets the object's alarm for it", async () => {
    const { user, fired } = await hooked();
    const reminder = inSeconds(1);
    const task = await createTask(user.key, { title: "Call mum", reminder });
    const { runInDurableObject } = await import("cloudflare:test");
    const alarm = await runInDurableObject(alarmOf(user.accountId), (_, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(reminder));
    expect(await fired()).toEqual([]);
    const events = await fired(Date.parse(reminder));
    expect(events.map((e) => [e.type, e.data.id, e.data.reminder])).toEqual([["task.reminder", task.id, reminder]]);
    // Fired: the alarm again, or a retry, sends nothing more.
    expect(await fired()).toHaveLength(1);
    expect(await accountSql(user.accountId, "SELECT * FROM reminders")).toEqual([]);
  });

  it("never fires a cancelled reminder: cleared, completed, deleted, or its list deleted", async () => {
    const { user, fired } = await hooked();
    const reminder = inSeconds(1);
    const cleared = await createTask(user.key, { title: "Cleared", reminder });
    const completed = await createTask(user.key, { title: "Completed", reminder });
    const deleted = await createTask(user.key, { title: "Deleted", reminder });
    await createTask(user.key, { title: "In a deleted list", reminder, listId: "gone" });
    await patch(user.key, cleared.id, { reminder: null });
    await patch(user.key, completed.id, { completed: true });
    await call(`/api/v1/tasks/${deleted.id}`, { method: "DELETE", token: user.key });
    await call("/api/v1/lists/gone", { method: "DELETE", token: user.key });
    expect(await accountSql(user.accountId, "SELECT * FROM reminders")).toEqual([]);
    expect(await fired(Date.parse(reminder) + 100)).toEqual([]);
  });

  it("moves a changed reminder, and never fires one already past when set", async () => {
    const { user, fired } = await hooked();
    const first = inSeconds(1);
    const moved = await createTask(user.key, { title: "Moved", reminder: first });
    const later = inSeconds(3600);
    await patch(user.key, moved.id, { reminder: later });
    await createTask(user.key, { title: "Past", reminder: inSeconds(-60) });
    expect(await fired(Date.parse(first) + 100)).toEqual([]);
    const rows = await accountSql<{ task_id: string; at: number }>(user.accountId, "SELECT task_id, at FROM reminders");
    expect(rows).toEqual([{ task_id: moved.id, at: Date.parse(later) }]);
  });

  it("keeps a due reminder that a write of another field finds waiting", async () => {
    const { user, fired } = await hooked();
    const task = await createTask(user.key, { title: "Due now", reminder: inSeconds(1) });
    // As if the alarm were late: its time comes, the alarm has not run.
    const { runInDurableObject } = await import("cloudflare:test");
    await runInDurableObject(alarmOf(user.accountId), (_, state) => state.storage.deleteAlarm());
    // `run` stamps writes with the runtime clock, which only a real wait moves past the reminder.
    await sleep(1100);
    // Its time has come but the alarm has not run yet: a title change must not lose it.
    await patch(user.key, task.id, { title: "Due now, renamed" });
    expect((await fired()).map((e) => e.data.title)).toEqual(["Due now, renamed"]);
  });

  it("schedules the next occurrence's reminder when a repeating task is completed", async () => {
    const { user } = await hooked();
    const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const task = await createTask(user.key, {
      title: "Weekly",
      due: `${due}T09:00:00Z`,
      reminder: `${due}T08:00:00Z`,
      repeat: "FREQ=WEEKLY",
    });
    const done = await json(await patch(user.key, task.id, { completed: true }));
    expect(done.completed).toBe(true);
    const rows = await accountSql<{ task_id: string }>(user.accountId, "SELECT task_id FROM reminders");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.task_id).not.toBe(task.id);
  });

  it("fires no event for an account whose Max lapsed", async () => {
    const { user, fired } = await hooked();
    const reminder = inSeconds(1);
    await createTask(user.key, { title: "Lapsed", reminder });
    await grant(user.email, "free");
    expect(await fired(Date.parse(reminder) + 100)).toEqual([]);
    expect(await accountSql(user.accountId, "SELECT * FROM reminders")).toEqual([]);
  });
});
