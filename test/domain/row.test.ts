import { describe, expect, it } from "vitest";
import type { TaskRow } from "../../src/account/schema";
import { toTask } from "../../src/domain/tasks/row";

const row: TaskRow = {
  id: "t1",
  title: "A task",
  completed: false,
  updatedAt: "2026-11-25T10:00:00.000Z",
  important: false,
  listId: null,
  due: null,
  reminder: null,
  repeat: null,
  notes: null,
  completedAt: null,
  createdAt: "2026-11-25T09:00:00.000Z",
  deletedAt: null,
  nextId: null,
};

describe("toTask", () => {
  it("leaves out only NULL optional fields: a falsy value that is stored is shown", () => {
    expect(toTask(row)).toEqual({
      id: "t1",
      title: "A task",
      completed: false,
      updatedAt: "2026-11-25T10:00:00.000Z",
      important: false,
    });
    // An empty string or a zero is a value, not an absence (the D1 design's SQL JSON kept it too).
    expect(toTask({ ...row, notes: "", listId: "0" })).toMatchObject({ notes: "", listId: "0" });
  });

  it("never shows the columns no surface declares", () => {
    const task = toTask({ ...row, deletedAt: "2026-11-25T11:00:00.000Z", nextId: "t2" });
    expect(Object.keys(task)).not.toContain("deletedAt");
    expect(Object.keys(task)).not.toContain("nextId");
    expect(Object.keys(task)).not.toContain("createdAt");
  });
});
