import type { AccountDb } from "../context";

/**
 * The last listing of each account's object, kept in memory and served again while the object's SQLite has not
 * changed since it was read: a client that lists again without writing (a page reloaded, an agent that lists before
 * each step) gets the same bytes without 1,000 rows read and joined again (docs/scaling.md, "Bench").
 *
 * Validity is SQLite's own count of the rows this connection has inserted, updated or deleted (`total_changes()`):
 * every write of the object moves it, whatever wrote (a verb, a change from the control plane, the alarm, the move
 * from D1, a test's SQL), and it never moves back within one connection, so a listing is served again only while
 * not one row changed. Writes that were rolled back move it too, but not back: a listing read inside a transaction
 * that then rolls back is dropped by the object's `run` (`forgetListing`), so it is never served. It counts rows,
 * not tables: an idle key's `lastUsedAt` (once a minute) also makes the next listing read again.
 *
 * One exception: `ctx.storage.deleteAll()` opens a new connection, which counts from zero, so a value seen before
 * can come back. The object's `erase` therefore calls `forgetListing` too.
 *
 * The memo holds one listing per object (the latest; its query is the key), and none over MAX_MEMO_CHARS, so an
 * isolate's many objects keep little. The clock and the time zone are not part of it: a page takes them fresh.
 */

/** What a listing reads from the tasks and lists tables: a page without its clock and time zone (list.ts). */
export interface Listing {
  readonly tasksJson: string;
  readonly count: number;
  /** The last task's id when another page follows (the next cursor is made from it). */
  readonly moreAfter?: string;
  /** A sorted listing's offset of the next page, when another follows. */
  readonly moreAt?: number;
  // Sent across the object's call, which copies it: nothing in the object changes a listing it was given.
  readonly deleted?: { id: string; deletedAt: string }[];
  readonly unknownList?: { readonly closest: string[] };
}

/** About 4,000 tasks: larger listings are read each time rather than held in the object's memory. */
const MAX_MEMO_CHARS = 1024 * 1024;

interface Memo {
  key: string;
  changes: number;
  listing: Listing;
}
/** By the object's storage: the objects that share an isolate each have their own. */
const memos = new WeakMap<DurableObjectStorage, Memo>();

// Raw SQL on the storage: total_changes() is the connection's counter, in no table Drizzle knows.
const changesOf = (storage: DurableObjectStorage) =>
  storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;

/**
 * The listing for `query` (any value JSON can spell: every field of it is part of the key), read by `read`
 * unless the memo holds it and nothing was written since.
 */
export function memoisedListing(db: AccountDb, query: object, read: () => Listing): Listing {
  const storage = db.$client;
  const key = JSON.stringify(query);
  const changes = changesOf(storage);
  const memo = memos.get(storage);
  if (memo && memo.key === key && memo.changes === changes) return memo.listing;
  const listing = read();
  // Held only if reading wrote nothing: its own count is then the one the next listing compares with.
  if (listing.tasksJson.length <= MAX_MEMO_CHARS && changesOf(storage) === changes)
    memos.set(storage, { key, changes, listing });
  else memos.delete(storage);
  return listing;
}

/** Drops the object's memo: for `deleteAll()`, which resets SQLite's count (see above). */
export function forgetListing(db: AccountDb): void {
  memos.delete(db.$client);
}
