import { describe, expect, it } from "vitest";
import type { TaskRow } from "../../src/object/schema";
import { toTask } from "../../src/object/tasks/row";

const row: TaskRow = {
  id: "t1",
  title: "A task",
  completed: false,
  updatedAt: "2026-11-25T10:00:00.000Z",
  important: false,
  priority: 1,
  listId: null,
  parentId: null,
  position: "a0",
  due: null,
  reminder: null,
  repeat: null,
  notes: null,
  labels: [],
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
      labels: [],
      priority: 1,
      position: "a0",
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

describe("taskJsonSql", () => {
  it("builds, in SQLite, the same JSON as toTask, byte for byte, falsy values included", async () => {
    const { accountSql, createTask, maxUser } = await import("../helpers");
    const user = await maxUser("task-json");
    await createTask(user.key, { title: 'Quote " and \\ and \u0001 and 😀', notes: "n", important: true });
    await createTask(user.key, { title: "Plain" });
    await createTask(user.key, { title: "Labelled", labels: ["Errand", "☎ phone"] });
    const { taskJsonSql } = await import("../../src/object/tasks/row");
    const { sql } = await import("drizzle-orm");
    const { SQLiteSyncDialect } = await import("drizzle-orm/sqlite-core");
    const text = new SQLiteSyncDialect().sqlToQuery(sql`SELECT ${taskJsonSql} AS json, * FROM tasks`).sql;
    // Falsy stored values: an empty note and a list named "0" are shown by both.
    await accountSql(user.accountId, "UPDATE tasks SET notes = '', list_id = '0' WHERE title = 'Plain'");
    const rows = await accountSql<Record<string, unknown> & { json: string }>(user.accountId, text);
    expect(rows).toHaveLength(3);
    for (const { json, ...stored } of rows) {
      const asRow = Object.fromEntries(
        Object.entries(stored).map(([column, value]) => [
          column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
          column === "completed" || column === "important"
            ? !!value
            : column === "labels"
              ? JSON.parse(value as string)
              : value,
        ]),
      ) as unknown as TaskRow;
      expect(json).toBe(JSON.stringify(toTask(asRow)));
    }
  });
});
