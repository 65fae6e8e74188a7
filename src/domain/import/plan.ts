import { AppError } from "../errors";

/**
 * What an import writes, read from a file before anything is written: the object applies a plan in
 * one transaction (src/object/import/apply.ts), so a file is imported whole or not at all.
 */

/** At most this many bytes a request (the body as sent). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** At most this many tasks a request: one transaction of the account's object stays well under a second. */
export const MAX_IMPORT_TASKS = 5000;

/** Something of the file that was not imported, and why; the rest was. */
export interface Skipped {
  /** The CSV line, or for a JSON export the task's place in `tasks` (1-based). */
  line: number;
  reason: string;
}

/** A list the tasks go to: by its id where the file has one (an export), and by its name. */
export interface PlannedList {
  /** How the plan's tasks name it. */
  key: string;
  id?: string;
  name: string;
}

/** A task to write, its fields already valid (TaskInput's schemas). */
export interface PlannedTask {
  /**
   * Stable across imports of the same file, so a second import finds it and adds nothing: the
   * export's own id, or one derived from the file's SHA-256 and the row's line (derivedId).
   */
  id: string;
  line: number;
  /** The planned id of its parent, written before it. */
  parentId?: string;
  /** A PlannedList's key. */
  list?: string;
  /** The task's input fields (title, notes, due, repeat, priority, labels, …). */
  input: Record<string, unknown>;
  completed?: boolean;
  completedAt?: string;
  createdAt?: string;
}

export interface ImportPlan {
  format: "export" | "todoist";
  lists: PlannedList[];
  /** Labels with their colour, from an export's own list of labels. */
  labels: { name: string; color?: string }[];
  /** Parents before their subtasks; siblings in their order. */
  tasks: PlannedTask[];
  skipped: Skipped[];
}

/** What an import answers. */
export interface ImportResult {
  imported: { tasks: number; lists: number; labels: number };
  skipped: Skipped[];
}

/** A row that cannot be read fails the whole import, with its line. */
export const importError = (line: number, message: string) =>
  new AppError("validation_failed", `Line ${line}: ${message}. Nothing was imported.`, [
    { path: `line ${line}`, message },
  ]);

export const tooManyTasks = (count: number) =>
  new AppError(
    "payload_too_large",
    `An import takes at most ${MAX_IMPORT_TASKS.toLocaleString("en")} tasks a request; this file has ${count.toLocaleString("en")}. Split it into smaller files. Nothing was imported.`,
  );

export const tooLarge = () =>
  new AppError(
    "payload_too_large",
    `An import takes at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB a request. Split the file into smaller ones. Nothing was imported.`,
  );

/**
 * A task id (UUID-shaped, version 8: "custom") from the file's SHA-256 (hex) and the row's line: the
 * same row of the same file always gets the same id, and two rows never share one.
 */
export function derivedId(fileHash: string, line: number): string {
  const h = fileHash.toLowerCase();
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const tail = h.slice(20, 24) + line.toString(16).padStart(8, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${tail}`;
}
