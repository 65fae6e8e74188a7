/**
 * Listings an isolate has already read, per API key and query, each with the account's
 * `tasks_version` it was read at. A listing statement sends the version it holds; while D1 still
 * reports that version, the statement reads no task (its filter is false before the scan) and the
 * isolate answers with what it holds. Any write to the account's tasks changes the version (triggers,
 * migration 0003), so nothing stale is ever served, and the key, its revocation and Max are judged by
 * the same statement on every request: a cache hit saves the page's reading and transfer, never the check.
 *
 * Keyed by the key's hash, not the account: a hash belongs to one account for good, and the key is
 * known before the database answers. Bounded in bytes, least recently used first out.
 */

/** What a listing statement yields besides the clock and the key's verdict. */
export interface ListedPage {
  json: string;
  count: number;
  fetched: number;
  lastId: string | null;
}

interface Entry {
  version: string;
  page: ListedPage;
  bytes: number;
}

/**
 * Listings above this size are not kept: about 1,350 tasks at two bytes a character (a big account
 * gains the most, since its page costs D1 the most to read; beyond this, `limit` pages are held).
 */
export const MAX_ENTRY_BYTES = 512 * 1024;
/** All entries of an isolate together (Workers give an isolate 128 MB). */
export const MAX_CACHE_BYTES = 8 * 1024 * 1024;

const entries = new Map<string, Entry>();
let totalBytes = 0;

/** What an isolate holds for one key and query: send its `version` with the statement. */
export interface HeldListing {
  readonly version: string;
  readonly page: ListedPage;
}

/** The listing held for this key and query, if any, as it is now: pass the same object to pageToServe. */
export function heldListing(key: string): HeldListing | undefined {
  return entries.get(key);
}

/**
 * The page to answer with. The statement read no task exactly when D1's version equals the one it
 * was sent (`held.version`): then the held page is current. Otherwise D1 read the page, and it is
 * kept for next time when the account has a version. `held` must be the object the statement's
 * version came from, not a fresh look-up: a concurrent request may have replaced the entry since.
 */
export function pageToServe(
  key: string,
  held: HeldListing | undefined,
  version: string | null,
  read: ListedPage,
): ListedPage {
  if (held && held.version === version) {
    const current = entries.get(key);
    if (current === held) {
      // Most recently used goes last.
      entries.delete(key);
      entries.set(key, current);
    }
    return held.page;
  }
  const current = entries.get(key);
  if (current) forget(key, current);
  if (version !== null) remember(key, version, read);
  return read;
}

function remember(key: string, version: string, page: ListedPage) {
  // UTF-16 in V8: two bytes per character, plus the key.
  const bytes = 2 * (page.json.length + key.length) + 64;
  if (bytes > MAX_ENTRY_BYTES) return;
  entries.set(key, { version, page, bytes });
  totalBytes += bytes;
  for (const [oldest, entry] of entries) {
    if (totalBytes <= MAX_CACHE_BYTES) break;
    forget(oldest, entry);
  }
}

function forget(key: string, entry: Entry) {
  entries.delete(key);
  totalBytes -= entry.bytes;
}

/** For tests: the number of entries and their bytes. */
export const listingCacheSize = () => ({ entries: entries.size, bytes: totalBytes });
