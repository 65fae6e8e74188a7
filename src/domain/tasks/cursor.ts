import { AppError } from "../errors";

/**
 * Opaque page cursor: the last id seen plus the first page's serverTime. Pages walk by id,
 * which no edit changes, so a task edited while a client pages is neither skipped nor sent
 * twice; every page reports the first page's serverTime, so the client's next `since` sync
 * picks up whatever changed after the listing began.
 */
export type Cursor = { serverTime: string } & (
  | { id: string; offset?: undefined }
  // A sorted listing (`sort`) walks by offset: its order is not the ids'.
  | { offset: number; id?: undefined }
);

export const encodeCursor = (c: Cursor) =>
  btoa(JSON.stringify(c.offset === undefined ? ["v2", c.id, c.serverTime] : ["o1", c.offset, c.serverTime]))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");

export function decodeCursor(value: string): Cursor {
  try {
    const [version, id, serverTime] = JSON.parse(atob(value.replaceAll("-", "+").replaceAll("_", "/"))) as unknown[];
    if (version === "v2" && typeof id === "string" && typeof serverTime === "string") return { id, serverTime };
    if (version === "o1" && Number.isSafeInteger(id) && (id as number) >= 0 && typeof serverTime === "string")
      return { offset: id as number, serverTime };
  } catch {
    // fall through to the validation error
  }
  throw new AppError("validation_failed", "The cursor is not one this API returned.", [
    { path: "cursor", message: "is not a valid cursor; pass meta.nextCursor unchanged" },
  ]);
}
