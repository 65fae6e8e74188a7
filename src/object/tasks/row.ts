import { getTableColumns, sql } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { tasks, type TaskRow } from "../schema";
import { computedFields, type FieldDeclaration, taskFields } from "../../domain/tasks/fields";
import type { Task, TaskPatch } from "../../domain/tasks/schemas";

/**
 * A task row in every form the verbs need, derived from the field declarations (fields.ts): the API
 * shape (toTask), the columns of a new row, a row as stored JSON (idempotent replays), and a patch as
 * column changes. No column is named here.
 */

const columns = getTableColumns(tasks);
type Key = keyof typeof columns;
const fields = Object.entries(taskFields) as [Key, FieldDeclaration][];
const isBoolean = (key: Key) => columns[key].dataType === "boolean";
const outputs = fields.filter(([, field]) => field.output);

/** Row → API shape. Unset (NULL) optional fields are omitted rather than sent as null. */
export function toTask(row: TaskRow): Task {
  const task: Record<string, unknown> = {};
  for (const [key, field] of outputs) if (field.output === "always" || row[key] != null) task[key] = row[key];
  return task as Task;
}

/** A column's value as JSON text: booleans as true/false, a JSON column as it is stored, text quoted. */
const jsonValue = (key: Key) =>
  isBoolean(key)
    ? `iif(${columns[key].name}, 'true', 'false')`
    : columns[key].dataType === "json"
      ? columns[key].name
      : `json_quote(${columns[key].name})`;

/**
 * The same API shape as toTask, built by SQLite: one JSON text per task. A listing joins these texts
 * into one string, which crosses from the account's object to the Worker as a single value and is sent
 * as it is, instead of thousands of objects cloned across the call and serialised again (the 1,000-task
 * list: docs/scaling.md, "Bench"). Plain concatenation with json_quote: about twice as fast as
 * json_object + json_patch. test/domain/row.test.ts holds it to toTask's output, byte for byte.
 * It adds the computed fields (a parent's `subtaskCounts`), which a row alone cannot give toTask; the
 * query must read the table as `tasks` (no alias), which their subqueries name.
 */
export const taskJsonSql = sql.raw(
  outputs
    .map(([key, field], i) => {
      const pair = `'${i ? "," : "{"}"${key}":' || ${jsonValue(key)}`;
      return field.output === "always" ? pair : `iif(${columns[key].name} IS NULL, '', ${pair})`;
    })
    .concat(Object.values(computedFields).map((field) => field.sql))
    .concat(`'}'`)
    .join(" || "),
);

/** Column values by field name. */
export type RowValues = { [K in Key]?: unknown };

/**
 * The new task's input fields as column values: "" for an optional text means none; a field left out whose
 * column has a default (important: false, labels: []) takes it.
 */
export const inputColumns = (input: Record<string, unknown>): RowValues =>
  Object.fromEntries(
    fields
      .filter(([key, f]) => f.input && !(input[key] === undefined && columns[key].hasDefault))
      .map(([key]) => [key, input[key] || (isBoolean(key) ? false : null)]),
  );

/** What a repeating task hands on to its next occurrence (fields declared `repeats`). */
export const repeatedColumns = (row: TaskRow): RowValues =>
  Object.fromEntries(fields.filter(([, f]) => f.repeats).map(([key]) => [key, row[key]]));

/** A patch as column values: "" (or null where declared) clears a field. */
export function patchColumns(patch: TaskPatch): RowValues {
  const changes: RowValues = {};
  for (const [key, field] of fields) {
    const value = (patch as Record<string, unknown>)[key];
    if (field.patch && value !== undefined) changes[key] = value === "" ? null : value;
  }
  return changes;
}

/** Every change strictly increases updatedAt, even two changes within one millisecond. */
const bumpedUpdatedAt = sql`max(${nowSql}, strftime('%Y-%m-%dT%H:%M:%fZ', ${tasks.updatedAt}, '+0.001 seconds'))`;

/**
 * The SET of an UPDATE: the changes, the fields that follow `completed` when it changes, and the
 * bumped updatedAt.
 */
export function setClause(changes: RowValues): Record<string, unknown> {
  const set: Record<string, unknown> = { ...changes };
  if (changes.completed !== undefined) {
    for (const [key, field] of fields) {
      if (field.followsCompleted) set[key] = field.followsCompleted(changes.completed ? 1 : 0);
    }
  }
  return { ...set, updatedAt: bumpedUpdatedAt };
}
