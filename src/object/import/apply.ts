import { and, eq, inArray, isNull } from "drizzle-orm";
import { labels, lists, tasks } from "../schema";
import { createLabel } from "../labels/service";
import type { AccountContext } from "../context";
import { createList } from "../lists/service";
import { nameKeyOf } from "../../domain/lists/names";
import { resolveListId } from "../lists/names";
import { insertTask } from "../tasks/insert";
import { withPriority } from "../tasks/priority";
import { inputColumns } from "../tasks/row";
import { parentFor } from "../tasks/tree";
import type { ImportFile } from "../../domain/import/read";
import { readImport } from "../../domain/import/read";
import type { DateReader } from "../../domain/import/todoist-date";
import {
  type ImportPlan,
  type ImportResult,
  importError,
  type PlannedList,
  type Skipped,
} from "../../domain/import/plan";
import { AppError } from "../../domain/errors";

/** The verb's value: the answer, and what it wrote, for its events (verbs/import-tasks.ts). */
export interface ImportOutcome extends ImportResult {
  /** The ids of the tasks and lists it wrote, and the name keys of the labels it made. */
  written: { tasks: string[]; lists: string[]; labels: string[] };
}

export type ImportArgs = ImportFile & {
  /** The file's SHA-256, computed by the object before the transaction (WebCrypto is asynchronous). */
  fileHash?: string;
  /** A CSV's date parser, loaded by the object before the transaction (src/lazy/load.ts `loadChrono`). */
  chrono?: DateReader;
};

/**
 * Reads the file and writes what it holds, inside the object's one transaction: a row it cannot read
 * throws, and nothing of the file is written. A task whose id is already live here (the same file
 * imported before) is skipped, so a second import adds nothing; one deleted here comes back.
 */
export function importTasks(ctx: AccountContext, { fileHash, chrono, ...file }: ImportArgs): ImportOutcome {
  const plan = readImport(file, { fileHash: fileHash ?? "", now: new Date(), timeZone: ctx.timeZone, chrono });
  const written = { tasks: [] as string[], lists: [] as string[], labels: [] as string[] };
  const labelsBefore = labelKeys(ctx);
  // An export's labels first, with their colours; a task's labels that no label has are made as it is written.
  for (const label of plan.labels) if (!labelsBefore.has(nameKeyOf(label.name))) createLabel(ctx, label);
  const listIds = new Map(plan.lists.map((list) => [list.key, listFor(ctx, list, plan, written.lists)]));
  const skipped: Skipped[] = [...plan.skipped];
  const existing = rowsOf(
    ctx,
    plan.tasks.map((task) => task.id),
  );
  for (const task of plan.tasks) {
    const deletedAt = existing.get(task.id);
    if (deletedAt === null) {
      skipped.push({ line: task.line, reason: `already imported: task ${task.id} exists` });
      continue;
    }
    try {
      // A tombstone of the same id gives way: the file brings the task back.
      if (deletedAt !== undefined) ctx.db.delete(tasks).where(eq(tasks.id, task.id)).run();
      // A subtask is always in its parent's list, at most MAX_TASK_DEPTH levels deep (tasks/tree.ts).
      const parent = task.parentId === undefined ? undefined : parentFor(ctx.db, task.parentId, 1);
      insertTask(ctx, {
        ...withPriority(inputColumns(task.input)),
        id: task.id,
        listId: parent ? parent.listId : task.list === undefined ? null : listIds.get(task.list),
        parentId: parent?.id ?? null,
        ...(task.completed ? { completed: true, completedAt: task.completedAt ?? new Date().toISOString() } : {}),
        ...(task.createdAt ? { createdAt: task.createdAt } : {}),
      });
    } catch (error) {
      // A rule of the task's write (its parent, its list) fails the import at this task's line.
      if (error instanceof AppError) throw importError(task.line, error.detail.replace(/\.$/, ""));
      throw error;
    }
    written.tasks.push(task.id);
  }
  written.labels = [...labelKeys(ctx)].filter((key) => !labelsBefore.has(key));
  skipped.sort((a, b) => a.line - b.line);
  const imported = { tasks: written.tasks.length, lists: written.lists.length, labels: written.labels.length };
  return { imported, skipped, written };
}

const labelKeys = ({ db }: AccountContext) =>
  new Set(
    db
      .select({ key: labels.nameKey })
      .from(labels)
      .all()
      .map((row) => row.key),
  );

/** SQLite binds at most 100 parameters a statement, and an import may hold 5,000 ids. */
export const CHUNK = 100;

/** The tasks of these ids that exist here, live (null) or deleted (when). */
function rowsOf({ db }: AccountContext, ids: string[]): Map<string, string | null> {
  const found = new Map<string, string | null>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = db
      .select({ id: tasks.id, deletedAt: tasks.deletedAt })
      .from(tasks)
      .where(inArray(tasks.id, ids.slice(i, i + CHUNK)))
      .all();
    for (const row of rows) found.set(row.id, row.deletedAt);
  }
  return found;
}

/**
 * The list a planned list means here: the live list of its id, else the live list of its name
 * (as a task's listId resolves), else a new one, with the file's id where it has one.
 */
function listFor(ctx: AccountContext, list: PlannedList, plan: ImportPlan, created: string[]): string {
  const { db } = ctx;
  const live = (id: string) =>
    db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.id, id), isNull(lists.deletedAt)))
      .get();
  if (list.id && live(list.id)) return list.id;
  const byName = plan.format === "export" ? nameMatch(ctx, list.name) : resolveListId(db, list.name);
  if (byName && live(byName)) return byName;
  const made = createList(ctx, list.id ? { id: list.id, name: list.name } : { name: list.name });
  created.push(made.id);
  return made.id;
}

const nameMatch = ({ db }: AccountContext, name: string) =>
  db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.nameKey, nameKeyOf(name)), isNull(lists.deletedAt)))
    .get()?.id;
