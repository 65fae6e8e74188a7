import { describe, expect, it } from "vitest";
import { call, createTask } from "../helpers";
import { hooked as hookedAs } from "./support";

/** Issue 34: each task of a tree a change reaches raises its own event, carrying the new fields. */

const hooked = () => hookedAs("subtask-hook");

describe("events of a task tree", () => {
  it("task.created for each subtask created with a task, task.completed for each completed with it, task.deleted for each deleted with it", async () => {
    const { user, events } = await hooked();
    const parent = await createTask(user.key, {
      title: "Launch",
      priority: 4,
      subtasks: [{ title: "a", subtasks: [{ title: "a1" }] }, { title: "b" }],
    });
    const a = parent.subtasks[0];
    const ids = [parent.id, a.id, a.subtasks[0].id, parent.subtasks[1].id];
    const created = await events();
    expect(created.map((e) => [e.type, e.data.id])).toEqual(ids.map((id) => ["task.created", id]));
    expect(created[0]!.data).toMatchObject({ priority: 4, important: true, position: parent.position });
    expect(created[1]!.data).toMatchObject({ parentId: parent.id, priority: 1, position: a.position });

    await call(`/api/v1/tasks/${parent.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    const completed = await events();
    expect(completed.map((e) => [e.type, e.data.id]).sort()).toEqual(ids.map((id) => ["task.completed", id]).sort());

    await call(`/api/v1/tasks/${parent.id}`, { method: "DELETE", token: user.key });
    const deleted = await events();
    expect(deleted.map((e) => [e.type, e.data.id]).sort()).toEqual(ids.map((id) => ["task.deleted", id]).sort());
  });
});
