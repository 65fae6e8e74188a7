import { describe, expect, it } from "vitest";
import { callOk, mcpClient } from "../mcp/client";
import { accountSql, call, createTask, json, maxUser } from "../helpers";
import { HOOK_URL, hooked as hookedAs, runAlarm, verified } from "./support";

/** A Max account with a webhook and a receiver that answers 200; `events()` delivers and verifies. */
const hooked = (body?: Record<string, unknown>) => hookedAs("hook", body);

describe("webhook delivery", () => {
  it("POSTs a signed task.created that standardwebhooks verifies, without following redirects", async () => {
    const { user, hook, r } = await hooked();
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const task = await createTask(user.key, { title: "Signed" });
    await runAlarm(user.accountId);
    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    expect([request!.method, request!.url, request!.headers["content-type"], request!.redirect]).toEqual([
      "POST",
      HOOK_URL,
      "application/json",
      "manual",
    ]);
    const event = verified(hook.secret, request!);
    expect(event.type).toBe("task.created");
    expect(event.data).toEqual(task);
    expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    // Signed with another secret, the same request is refused by the verifier.
    expect(() => verified("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", request!)).toThrow();
  });

  it("raises task.updated, task.completed with next, task.deleted; nothing for a no-op or a replay", async () => {
    const { user, events } = await hooked();
    const task = await createTask(user.key, { title: "Water plants", due: "2026-12-01", repeat: "FREQ=WEEKLY" });
    await call("/api/v1/tasks", { token: user.key, body: { title: "Once" }, headers: { "Idempotency-Key": "k1" } });
    await call("/api/v1/tasks", { token: user.key, body: { title: "Once" }, headers: { "Idempotency-Key": "k1" } });
    expect((await events()).map((e) => e.type)).toEqual(["task.created", "task.created"]);

    await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: {} });
    await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { title: "Water the plants" } });
    const completed = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { completed: true },
    });
    expect(completed.status).toBe(200);
    const [updated, done] = await events();
    expect([updated!.type, updated!.data.title]).toEqual(["task.updated", "Water the plants"]);
    expect([done!.type, done!.data.completed, done!.data.next.due]).toEqual(["task.completed", true, "2026-12-08"]);

    await call(`/api/v1/tasks/${done!.data.next.id}`, { method: "DELETE", token: user.key });
    expect(await events()).toEqual([
      expect.objectContaining({ type: "task.deleted", data: { id: done!.data.next.id } }),
    ]);
  });

  it("raises list events, and task.deleted for each task of a deleted list", async () => {
    const { user, events } = await hooked();
    const first = await createTask(user.key, { title: "Milk", listId: "groceries" });
    const list = await json(await call("/api/v1/lists", { token: user.key, body: { name: "Work", id: "work" } }));
    await call("/api/v1/lists/work", { method: "PATCH", token: user.key, body: { name: "Job" } });
    expect((await events()).map((e) => [e.type, e.data.id])).toEqual([
      ["list.created", "groceries"],
      ["task.created", first.id],
      ["list.created", list.id],
      ["list.updated", "work"],
    ]);
    const second = await createTask(user.key, { title: "Bread", listId: "groceries" });
    await events();
    await call("/api/v1/lists/groceries", { method: "DELETE", token: user.key });
    const deleted = await events();
    expect(deleted.map((e) => [e.type, e.data.id]).sort()).toEqual(
      [
        ["list.deleted", "groceries"],
        ["task.deleted", first.id],
        ["task.deleted", second.id],
      ].sort(),
    );
  });

  it("raises the same events for MCP writes", async () => {
    const { user, events } = await hooked();
    const client = await mcpClient(user.key);
    const { task } = await callOk(client, "create_task", { title: "From MCP" });
    await callOk(client, "complete_task", { id: task.id });
    await callOk(client, "delete_task", { id: task.id });
    expect((await events()).map((e) => [e.type, e.data.id])).toEqual([
      ["task.created", task.id],
      ["task.completed", task.id],
      ["task.deleted", task.id],
    ]);
  });

  it("raises nothing for a refused write, and only the types a webhook asked for", async () => {
    const { user, events } = await hooked({ url: HOOK_URL, events: ["task.deleted"] });
    const task = await createTask(user.key, { title: "Kept" });
    const stale = await call(`/api/v1/tasks/${task.id}`, {
      method: "DELETE",
      token: user.key,
      headers: { "If-Match": '"stale"' },
    });
    expect(stale.status).toBe(412);
    expect(await events()).toEqual([]);
    expect(await accountSql(user.accountId, "SELECT * FROM webhook_outbox")).toEqual([]);
    await call(`/api/v1/tasks/${task.id}`, { method: "DELETE", token: user.key });
    expect((await events()).map((e) => e.type)).toEqual(["task.deleted"]);
  });

  it("never carries another account's task", async () => {
    const { user, events } = await hooked();
    const other = await maxUser("other");
    await createTask(other.key, { title: "Not yours" });
    await runAlarm(other.accountId);
    const mine = await createTask(user.key, { title: "Mine" });
    expect((await events()).map((e) => e.data.id)).toEqual([mine.id]);
  });
});
