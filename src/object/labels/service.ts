import { and, asc, count, eq, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import { nowSql } from "../../domain/clock";
import { AppError } from "../../domain/errors";
import { newId } from "../../domain/ids";
import type { Label, LabelInput, LabelPatch } from "../../domain/labels/schemas";
import type { AccountContext, AccountDb } from "../context";
import { nameKeyOf } from "../../domain/lists/names";
import { labels, type LabelRow, taskLabels, tasks } from "../schema";
import type { Task } from "../../domain/tasks/schemas";
import { setClause, toTask } from "../tasks/row";
import { searchKeyOf } from "../tasks/search";

/**
 * The label verbs, for REST, MCP and the page alike. A task carries its labels by their stored spelling in
 * its own `labels` column; `task_labels` indexes them (migration 0005's triggers). A rename or a delete
 * rewrites that column on every live task with the label, so their `updatedAt` moves and `since` syncs see it.
 */

const notFound = () => new AppError("label_not_found", "No label with this id in your account.");

/** A label as the API shows it, with the count of live tasks that carry it. */
export const toLabel = ({ id, name, color, createdAt, updatedAt }: LabelRow, taskCount: number): Label =>
  color ? { id, name, color, taskCount, createdAt, updatedAt } : { id, name, taskCount, createdAt, updatedAt };

/** Labels with their counts of live tasks: one grouped read however many there are. */
export function labelsWithCounts(db: AccountDb, where?: SQL): Label[] {
  return db
    .select({ label: labels, taskCount: count(tasks.id) })
    .from(labels)
    .leftJoin(taskLabels, eq(taskLabels.labelId, labels.id))
    .leftJoin(tasks, and(eq(tasks.id, taskLabels.taskId), isNull(tasks.deletedAt)))
    .where(where)
    .groupBy(labels.id)
    .orderBy(asc(labels.nameKey))
    .all()
    .map((row) => toLabel(row.label, row.taskCount));
}

function labelById(db: AccountDb, id: string): Label {
  const [label] = labelsWithCounts(db, eq(labels.id, id));
  if (!label) throw notFound();
  return label;
}

/** 409 when another label has this name, ignoring case; the detail names it as stored. */
function refuseClash(db: AccountDb, nameKey: string, self?: string) {
  const named = db
    .select({ name: labels.name })
    .from(labels)
    .where(and(eq(labels.nameKey, nameKey), self ? ne(labels.id, self) : undefined))
    .get();
  if (named) {
    throw new AppError("label_exists", `The label "${named.name}" already exists (names are unique ignoring case).`);
  }
}

/** A new label row's columns: its name, and the keys it is matched and searched by. */
export const labelColumns = (name: string) => ({ name, nameKey: nameKeyOf(name), searchKey: searchKeyOf(name) });

export function listLabels({ db }: AccountContext): { labels: Label[] } {
  return { labels: labelsWithCounts(db) };
}

export function createLabel({ db }: AccountContext, input: LabelInput): Label {
  const columns = labelColumns(input.name);
  refuseClash(db, columns.nameKey);
  const row = db
    .insert(labels)
    .values({ id: newId(), ...columns, color: input.color ?? null })
    .returning()
    .get();
  return toLabel(row, 0);
}

/** The live tasks that carry the label: a rename or a delete rewrites them. */
const tasksWithLabel = (db: AccountDb, id: string) =>
  and(
    inArray(tasks.id, db.select({ id: taskLabels.taskId }).from(taskLabels).where(eq(taskLabels.labelId, id))),
    isNull(tasks.deletedAt),
  );

/**
 * Renames or recolours a label; `{}`, or the values it has, return it unchanged. A rename shows on every
 * live task with the label (each task's `updatedAt` moves). Another label with the name is 409.
 */
export function updateLabel({ db }: AccountContext, { id, patch }: { id: string; patch: LabelPatch }): Label {
  const current = db.select().from(labels).where(eq(labels.id, id)).get();
  if (!current) throw notFound();
  const renamed = patch.name !== undefined && patch.name !== current.name;
  const color = patch.color === undefined ? current.color : patch.color || null;
  if (!renamed && color === current.color) return labelById(db, id);
  const name = renamed ? patch.name! : current.name;
  if (renamed) refuseClash(db, nameKeyOf(name), id);
  db.update(labels)
    .set({ ...labelColumns(name), color, updatedAt: nowSql })
    .where(eq(labels.id, id))
    .run();
  if (renamed) {
    // json_each/json_group_array: the one statement that rewrites one name inside each task's JSON array.
    db.update(tasks)
      .set(
        setClause({
          labels: sql`(SELECT json_group_array(iif(value = ${current.name}, ${name}, value)) FROM json_each(${tasks.labels}))`,
        }),
      )
      .where(tasksWithLabel(db, id))
      .run();
  }
  return labelById(db, id);
}

/** Deletes a label and takes it off every task (each live task's `updatedAt` moves). */
export function deleteLabel({ db }: AccountContext, { id }: { id: string }): null {
  const current = db.select().from(labels).where(eq(labels.id, id)).get();
  if (!current) throw notFound();
  db.update(tasks)
    .set(
      setClause({
        labels: sql`(SELECT json_group_array(value) FROM json_each(${tasks.labels}) WHERE value <> ${current.name})`,
      }),
    )
    .where(tasksWithLabel(db, id))
    .run();
  // Its index rows, tombstoned tasks' included, go with it (migration 0005's trigger).
  db.delete(labels).where(eq(labels.id, id)).run();
  return null;
}

/** The ids of the live tasks that carry a label: the tasks a delete changes (their task.updated). */
export const taskIdsWithLabel = (db: AccountDb, id: string) =>
  db
    .select({ id: tasks.id })
    .from(tasks)
    .where(tasksWithLabel(db, id))
    .all()
    .map((row) => row.id);

/** The live tasks that carry a label now, as the API shows them: the tasks a rename changed. */
export const tasksWithLabelNow = (db: AccountDb, id: string): Task[] =>
  db.select().from(tasks).where(tasksWithLabel(db, id)).all().map(toTask);

/**
 * These tasks as the API shows them. The ids go as one JSON parameter (json_each): a label may be on
 * thousands of tasks, past the bound parameters one statement takes.
 */
export const tasksByIds = (db: AccountDb, ids: string[]): Task[] =>
  ids.length === 0
    ? []
    : db
        .select()
        .from(tasks)
        .where(sql`${tasks.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
        .all()
        .map(toTask);
