import { AppError } from "../errors";

/**
 * Opaque page cursor: the last (updatedAt, id) seen plus the first page's serverTime.
 * Later pages only show tasks changed up to that serverTime, so a task edited while a
 * client pages cannot appear twice; the edit reaches the client on its next `since` sync.
 */
export interface Cursor {
  updatedAt: string;
  id: string;
  serverTime: string;
}

export const encodeCursor = (c: Cursor) =>
  btoa(JSON.stringify([c.updatedAt, c.id, c.serverTime])).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

export function decodeCursor(value: string): Cursor {
  try {
    const [updatedAt, id, serverTime] = JSON.parse(atob(value.replaceAll("-", "+").replaceAll("_", "/"))) as unknown[];
    if ([updatedAt, id, serverTime].every((v) => typeof v === "string")) {
      return { updatedAt, id, serverTime } as Cursor;
    }
  } catch {
    // fall through to the validation error
  }
  throw new AppError("validation_failed", "The cursor is not one this API returned.", [
    { path: "cursor", message: "is not a valid cursor; pass meta.nextCursor unchanged" },
  ]);
}
