import { getTableColumns, type Placeholder, type SQL, sql } from "drizzle-orm";
import { selectRow } from "../../db/row-select";
import { nowSql } from "../../db/clock";
import { tasks, type TaskRow } from "../../db/schema";
import { type FieldDeclaration, taskFields } from "./fields";
import type { Task, TaskPatch } from "./schemas";
import type { CallerScope } from "./statements";

/**
 * A task row in every form the verbs need, derived from the field declarations (fields.ts): the API
 * shape in JS (toTask) and in SQL (taskJsonSql), a new row for insert…select, a row as stored JSON
 * (idempotent replays), and a patch as column changes. No column is named here.
 */

const columns = getTableColumns(tasks);
type Key = keyof typeof columns;
const fields = Object.entries(taskFields) as [Key, FieldDeclaration][];
const isBoolean = (key: Key) => columns[key].dataType === "boolean";
const outputs = fields.filter(([, field]) => field.output);

/** Row → API shape. Unset optional fields are omitted rather than sent as null. */
export function toTask(row: TaskRow): Task {
  const task: Record<string, unknown> = {};
  for (const [key, field] of outputs) if (field.output === "always" || row[key]) task[key] = row[key];
  return task as Task;
}

/** A column's value as JSON text: booleans as true/false, text quoted. */
const jsonValue = (key: Key) =>
  isBoolean(key) ? `iif(${columns[key].name}, 'true', 'false')` : `json_quote(${columns[key].name})`;

/**
 * The same API shape built by SQLite, for listings: one JSON text per task, so a list of
 * thousands crosses from D1 as one string instead of thousands of row objects mapped in JS.
 * Plain string concatenation with json_quote: about twice as fast as json_object + json_patch
 * (measured with SQLite on 100 rows: 71 µs against 130 µs), with the same escaping.
 * test/domain/task-json.test.ts holds it to toTask's output, byte for byte.
 */
export const taskJsonSql = sql.raw(
  outputs
    .map(([key, field], i) => {
      const pair = `'${i ? "," : "{"}"${key}":' || ${jsonValue(key)}`;
      return field.output === "always" ? pair : `iif(${columns[key].name} IS NULL, '', ${pair})`;
    })
    .concat(`'}'`)
    .join(" || "),
);

/** The taskJsonSql of the aggregated rows as one JSON array text, in `orderBy` order; `[]` for none. */
export const taskArraySql = (orderBy: SQL, filter?: SQL) =>
  sql`'[' || coalesce(group_concat(${taskJsonSql}, ',' ORDER BY ${orderBy})${filter ? sql` FILTER (WHERE ${filter})` : sql``}, '') || ']'`;

/** Column values by field name: JS values (encoded by the column), placeholders, or SQL. */
export type RowValues = { [K in Key]?: unknown };

/** The values a compiled statement binds for these columns (placeholders), by field name. */
export const boundColumns = (values: object, columns: string[]): RowValues =>
  Object.fromEntries(columns.map((key) => [key, (values as Record<string, unknown>)[key]]));

/**
 * A new task of the caller's account as the SELECT of an insert…select: `columns` bound from the
 * statement's values, every other column its declared default. The owner row exists only for an
 * allowed caller, so a refused key inserts nothing; `when` adds a condition (a claim won, a task
 * unchanged).
 */
export const newTaskRow = (scope: CallerScope<object>, columns: string[], id: unknown, when?: SQL) =>
  sql`SELECT ${selectRow(tasks, { ...boundColumns(scope.values, columns), id, accountId: sql`owner.id` })}
      FROM (SELECT ${scope.account} AS id) owner WHERE owner.id IS NOT NULL${when ? sql` AND ${when}` : sql``}`;

/** The new task's input fields as column values: "" for an optional text means none. */
export const inputColumns = (input: Record<string, unknown>): RowValues =>
  Object.fromEntries(
    fields.filter(([, f]) => f.input).map(([key]) => [key, input[key] || (isBoolean(key) ? false : null)]),
  );

/** What a repeating task hands on to its next occurrence (fields declared `repeats`). */
export const repeatedColumns = (row: TaskRow): RowValues =>
  Object.fromEntries(fields.filter(([, f]) => f.repeats).map(([key]) => [key, row[key]]));

/** A whole row as one JSON object text, for storing a response that replays byte for byte. */
export const rowJsonSql = sql.raw(
  `json_object(${Object.entries(columns)
    .map(([key, column]) => `'${key}', ${column.name}`)
    .join(", ")})`,
);

/** A row stored by rowJsonSql, decoded as Drizzle decodes a select. */
export function rowFromJson(json: string): TaskRow {
  const stored = JSON.parse(json) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [
      key,
      stored[key] === null ? null : column.mapFromDriverValue(stored[key]),
    ]),
  ) as TaskRow;
}

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
 * bumped updatedAt. Values are placeholders or SQL: every UPDATE is a compiled statement.
 */
export function setClause(changes: RowValues): Record<string, unknown> {
  const set: Record<string, unknown> = { ...changes };
  if (changes.completed !== undefined) {
    for (const [key, field] of fields) {
      if (field.followsCompleted) set[key] = field.followsCompleted(changes.completed as Placeholder);
    }
  }
  return { ...set, updatedAt: bumpedUpdatedAt };
}
