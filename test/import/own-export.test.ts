import { describe, expect, it } from "vitest";
import { readOwnExport } from "../../src/domain/import/own-export";
import type { AppError } from "../../src/domain/errors";

const task = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Task ${id}`,
  completed: false,
  updatedAt: "2026-11-01T10:00:00.000Z",
  createdAt: "2026-10-01T10:00:00.000Z",
  ...extra,
});

const document = (tasks: unknown[], lists: unknown[] = [{ id: "work", name: "Work" }]) => ({
  format: "todo-export/2",
  exportedAt: "2026-11-27T09:00:00.000Z",
  account: { id: "acc", email: "a@example.com" },
  apiKeys: [],
  sessions: [],
  lists,
  connections: [],
  tasks,
});

const failure = (value: unknown) => {
  try {
    readOwnExport(value);
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected the import to fail");
};

describe("readOwnExport", () => {
  it("keeps ids, lists, completion and creation time; parents before subtasks, siblings by position", () => {
    const plan = readOwnExport(
      document([
        task("c2", { parentId: "p", position: "a1", listId: "work" }),
        task("p", { position: "a0", listId: "work", notes: "n", due: "2026-12-24" }),
        task("c1", { parentId: "p", position: "a0V", listId: "work" }),
        task("q", { position: "Zz", completed: true, completedAt: "2026-11-02T08:00:00.000Z" }),
        task("g", { parentId: "c1", position: "a0", listId: "work" }),
      ]),
    );
    expect(plan.tasks.map((t) => t.id)).toEqual(["q", "p", "c1", "g", "c2"]);
    expect(plan.lists).toEqual([{ key: "work", id: "work", name: "Work" }]);
    const byId = new Map(plan.tasks.map((t) => [t.id, t]));
    expect(byId.get("p")).toMatchObject({
      line: 2,
      list: "work",
      createdAt: "2026-10-01T10:00:00.000Z",
      input: { title: "Task p", notes: "n", due: "2026-12-24" },
    });
    expect(byId.get("g")!.parentId).toBe("c1");
    expect(byId.get("q")).toMatchObject({ completed: true, completedAt: "2026-11-02T08:00:00.000Z" });
    expect(byId.get("q")!.list).toBeUndefined();
    // Read-only fields are not input.
    expect(Object.keys(byId.get("p")!.input)).not.toContain("updatedAt");
  });

  it("makes a list a task names that the file does not hold, named after its id", () => {
    const plan = readOwnExport(document([task("a", { listId: "errands" })], []));
    expect(plan.lists).toEqual([{ key: "errands", id: "errands", name: "errands" }]);
  });

  it("fails the whole file, with the task's place, at what it cannot read", () => {
    const cases: [unknown, RegExp][] = [
      [{ tasks: [] }, /^Line 1: this JSON is not an export of this service/],
      [document([task("a"), task("b", { title: "" })]), /^Line 2: title must contain at least one non-space/],
      [document([task("a", { due: "soon" })]), /^Line 1: due must be YYYY-MM-DD/],
      [document([task("a"), task("b", { parentId: "zz" })]), /^Line 2: parentId zz names no task of this file/],
      [document([task("a", { parentId: "b" }), task("b", { parentId: "a" })]), /^Line 1: parentId makes a cycle/],
      [document([task("a"), task("a")]), /^Line 2: the id a is used by two tasks/],
      [document([task("a", { createdAt: "yesterday" })]), /^Line 1: createdAt must be a date-time/],
      [document([task("a")], [{ id: "bad id!", name: "X" }]), /^Line 1: a list in "lists" needs a valid id and name/],
    ];
    for (const [value, message] of cases) {
      const error = failure(value);
      expect(error.code).toBe("validation_failed");
      expect(error.detail).toMatch(message);
    }
  });

  it("refuses more than 5,000 tasks with a 413", () => {
    const error = failure(document(Array.from({ length: 5001 }, (_, i) => task(`t${i}`))));
    expect(error.code).toBe("payload_too_large");
  });
});
