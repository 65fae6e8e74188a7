import { type SQL, sql } from "drizzle-orm";
import { integer, type SQLiteColumnBuilderBase, text } from "drizzle-orm/sqlite-core";
import type * as z from "zod";
import { nowSql } from "../clock";
import {
  Completed,
  Due,
  Important,
  Labels,
  ListRef,
  Notes,
  ParentId,
  Position,
  Priority,
  Reminder,
  Repeat,
  SubtaskCounts,
  TaskId,
  Timestamp,
  Title,
} from "./values";

/**
 * Every field of a task, declared once. The tasks table (control/schema.ts), the zod schemas Task, TaskInput
 * and TaskPatch (schemas.ts), the JSON both toTask and SQLite build (row.ts), the insert and update
 * column lists, idempotent replays and the next occurrence of a repeating task all derive from here.
 * The key is the JSON name; the column carries the SQL name and type. The order is the order of the
 * properties in every Task the API sends.
 */
export interface FieldDeclaration {
  column: SQLiteColumnBuilderBase;
  /** The schema of its value on the API; none for a column no surface shows. */
  schema?: z.ZodType;
  /** In Task: always there, or left out while NULL. */
  output?: "always" | "optional";
  /** In TaskInput (create). */
  input?: "required" | "optional";
  /** In TaskPatch: "set" only, or also cleared by "" ("empty") or by null ("null"). */
  patch?: "set" | "empty" | "null";
  /** The patch property's own description, when clearing needs saying. */
  patchMeta?: { description: string; example?: string };
  /** Copied from a completed repeating task to its next occurrence. */
  repeats?: true;
  /**
   * Written whenever `completed` is: the SQL value for the new `completed` (1 or 0). In an UPDATE,
   * column names read the row before the change.
   */
  followsCompleted?: (completed: 0 | 1) => SQL;
}

export const taskFields = {
  id: { column: text("id").primaryKey(), schema: TaskId, output: "always" },
  title: {
    column: text("title").notNull(),
    schema: Title,
    output: "always",
    input: "required",
    patch: "set",
    repeats: true,
  },
  completed: {
    column: integer("completed", { mode: "boolean" }).notNull().default(false),
    schema: Completed,
    output: "always",
    patch: "set",
  },
  updatedAt: {
    column: text("updated_at").notNull().default(nowSql),
    schema: Timestamp.meta({ description: "When the task last changed. Strictly increases on every change." }),
    output: "always",
  },
  important: {
    column: integer("important", { mode: "boolean" }).notNull().default(false),
    schema: Important,
    output: "always",
    input: "optional",
    patch: "set",
    repeats: true,
  },
  // important ⇔ priority >= 3: the object keeps the two in step (object/tasks/priority.ts).
  priority: {
    column: integer("priority").notNull().default(1),
    schema: Priority,
    output: "always",
    input: "optional",
    patch: "set",
    repeats: true,
  },
  listId: {
    column: text("list_id"),
    schema: ListRef,
    output: "optional",
    input: "optional",
    patch: "empty",
    patchMeta: { description: 'New list id, or "" to remove the task from its list.', example: "errands" },
    repeats: true,
  },
  parentId: {
    column: text("parent_id"),
    schema: ParentId,
    output: "optional",
    input: "optional",
    patch: "empty",
    patchMeta: { description: 'New parent task\'s id, or "" to make it a top-level task.', example: "" },
    repeats: true,
  },
  // Written by the object only (object/tasks/position.ts): new tasks go last, moves go between two siblings.
  position: { column: text("position").notNull().default(""), schema: Position, output: "always" },
  due: {
    column: text("due"),
    schema: Due,
    output: "optional",
    input: "optional",
    patch: "empty",
    patchMeta: { description: 'New due value, or "" to clear it.', example: "2026-12-24" },
  },
  reminder: {
    column: text("reminder"),
    schema: Reminder,
    output: "optional",
    input: "optional",
    patch: "null",
    patchMeta: { description: "New reminder, or null to clear it." },
  },
  repeat: {
    column: text("repeat"),
    schema: Repeat,
    output: "optional",
    input: "optional",
    patch: "empty",
    patchMeta: { description: 'New RRULE, or "" to stop repeating.', example: "FREQ=MONTHLY;BYMONTHDAY=1" },
  },
  notes: {
    column: text("notes"),
    schema: Notes,
    output: "optional",
    input: "optional",
    patch: "empty",
    patchMeta: { description: 'New notes, or "" to clear them.', example: "Bring two photos." },
    repeats: true,
  },
  /**
   * The task's labels by their stored spelling, as a JSON array: every read of a row carries them with no
   * join. Written only through labels/service.ts (`withResolvedLabels`), which matches names to labels and
   * creates new ones; migration 0005's triggers keep `task_labels`, the index filters and counts read, in step.
   */
  labels: {
    column: text("labels", { mode: "json" }).$type<string[]>().notNull().default([]),
    schema: Labels,
    output: "always",
    input: "optional",
    patch: "set",
    repeats: true,
  },
  completedAt: {
    column: text("completed_at"),
    schema: Timestamp.meta({ description: "When the task was completed (database clock); absent while it is open." }),
    output: "optional",
    // Set when the task becomes completed (kept when it already was), cleared when it is reopened.
    followsCompleted: (completed) => sql`iif(${completed}, iif(completed, completed_at, ${nowSql}), NULL)`,
  },
  createdAt: { column: text("created_at").notNull().default(nowSql) },
  /** Tombstone: set on delete so sync clients learn about it through `since`. */
  deletedAt: { column: text("deleted_at") },
  /** The next occurrence this task's completion created, so a retried completion can return it again. */
  nextId: { column: text("next_id") },
} satisfies Record<string, FieldDeclaration>;

export type TaskFields = typeof taskFields;

/**
 * Output fields that no column holds: read from other rows by SQLite where a task is read for a listing
 * or a get (object/tasks/row.ts `taskJsonSql`). A task written back (create, update, events) has none.
 * `sql`: the JSON property's text (leading comma included) or '', for the row of the outer `tasks`.
 */
export const computedFields = {
  subtaskCounts: {
    schema: SubtaskCounts,
    output: "optional",
    sql: `coalesce((SELECT ',"subtaskCounts":{"open":' || sum(s.completed = 0) || ',"total":' || count(*) || '}' FROM tasks s WHERE s.parent_id = tasks.id AND s.deleted_at IS NULL HAVING count(*) > 0), '')`,
  },
} as const;
