import { type ImportPlan, importError } from "./plan";
import { readOwnExport } from "./own-export";
import { readTodoistCsv } from "./todoist";
import type { DateReader } from "./todoist-date";

/** What an import request carries to the account's object: the file as text, and how to read it. */
export interface ImportFile {
  /** `json`: this service's own export; `csv`: a Todoist CSV project export. */
  format: "json" | "csv";
  text: string;
  /** The list a CSV's tasks go to (by name or id): the request's `list`, or the file's name. */
  list?: string;
}

/** The file as a plan, or the import fails with the line it cannot read. */
export function readImport(
  { format, text, list }: ImportFile,
  { chrono, ...context }: { fileHash: string; now: Date; timeZone: string; chrono?: DateReader },
): ImportPlan {
  if (format === "csv") {
    if (!list) throw importError(1, "a CSV import needs the list's name: send `?list=`");
    if (!chrono) throw new Error("a CSV import needs the date parser: the verb loads it before the transaction");
    return readTodoistCsv(text, { ...context, chrono, listName: list });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (e) {
    throw importError(1, `the file is not valid JSON (${(e as Error).message})`);
  }
  return readOwnExport(document);
}
