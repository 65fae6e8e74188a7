import { describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";

describe("smoke", () => {
  it("creates and lists a task with a Max key", async () => {
    const user = await maxUser();
    const task = await createTask(user.key, { title: "Buy milk" });
    expect(task.title).toBe("Buy milk");
    const list = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([task.id]);
  });
});
