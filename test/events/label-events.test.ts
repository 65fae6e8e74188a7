import { describe, expect, it } from "vitest";
import { call, createTask, json } from "../helpers";
import { hooked as hookedAs } from "./support";

/** label.created, label.updated and label.deleted, and the task.updated a rename or a delete raises per task. */

/** The account's events as [type, data] pairs, verified (support.ts `hooked`). */
async function hooked() {
  const { user, events } = await hookedAs("label-hook");
  return { user, events: async () => (await events()).map((e) => [e.type, e.data]) };
}

describe("label events", () => {
  it("raise label.created for a label made directly or by a task naming it, once", async () => {
    const { user, events } = await hooked();
    const label = await json(
      await call("/api/v1/labels", { token: user.key, body: { name: "Home", color: "#112233" } }),
    );
    expect(await events()).toEqual([["label.created", label]]);
    const task = await createTask(user.key, { title: "t", labels: ["home", "New one"] });
    const raised = await events();
    expect(raised.map(([type]) => type)).toEqual(["label.created", "task.created"]);
    expect(raised[0]![1]).toMatchObject({ name: "New one", taskCount: 1 });
    expect(raised[1]![1]).toEqual(task);
    const patched = await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { labels: ["New one", "third"] },
    });
    const updated = await json(patched);
    expect(await events()).toEqual([
      ["label.created", expect.objectContaining({ name: "third", taskCount: 1 })],
      ["task.updated", updated],
    ]);
  });

  it("raise label.updated and task.updated per relabelled task on a rename; nothing for a no-op", async () => {
    const { user, events } = await hooked();
    const a = await createTask(user.key, { title: "a", labels: ["x"] });
    await createTask(user.key, { title: "b" });
    await events();
    const id = (await json(await call("/api/v1/labels", { token: user.key }))).data[0].id;
    const label = await json(
      await call(`/api/v1/labels/${id}`, { method: "PATCH", token: user.key, body: { name: "y" } }),
    );
    const task = await json(await call(`/api/v1/tasks/${a.id}`, { token: user.key }));
    expect(task.labels).toEqual(["y"]);
    expect(await events()).toEqual([
      ["label.updated", label],
      ["task.updated", task],
    ]);
    await call(`/api/v1/labels/${id}`, { method: "PATCH", token: user.key, body: { name: "y" } });
    expect(await events()).toEqual([]);
    const recoloured = await json(
      await call(`/api/v1/labels/${id}`, { method: "PATCH", token: user.key, body: { color: "#000000" } }),
    );
    expect(await events()).toEqual([["label.updated", recoloured]]);
  });

  it("raise label.deleted and task.updated for each live task it was taken off", async () => {
    const { user, events } = await hooked();
    const a = await createTask(user.key, { title: "a", labels: ["x", "keep"] });
    const gone = await createTask(user.key, { title: "gone", labels: ["x"] });
    await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
    await events();
    const x = (await json(await call("/api/v1/labels", { token: user.key }))).data.find(
      (l: { name: string }) => l.name === "x",
    );
    expect((await call(`/api/v1/labels/${x.id}`, { method: "DELETE", token: user.key })).status).toBe(204);
    const task = await json(await call(`/api/v1/tasks/${a.id}`, { token: user.key }));
    expect(await events()).toEqual([
      ["label.deleted", { id: x.id }],
      ["task.updated", task],
    ]);
    expect(task.labels).toEqual(["keep"]);
  });
});
