/**
 * How names of lists (and labels) compare, for every side: the account's object (resolving a `listId`, the
 * "did you mean" of a new list), the tasks page's quick add, and import. Declared once here (issue 34 item 5).
 */

/** Names are unique per account ignoring case: NFC, then upper- and lower-cased, so "ß" matches "SS". */
export const nameKeyOf = (name: string) => name.normalize("NFC").toUpperCase().toLowerCase();

/** A name as people misspell it least: ignoring case, spaces, dashes and underscores ("Weekly-shop" is "Weekly shop"). */
export const looseKeyOf = (name: string) => nameKeyOf(name).replace(/[\s_-]+/g, "");

/**
 * The names among `names` closest to `name`, closest first, at most 3: one contains the other, or at most a third of
 * the letters differ ("grocery" and "Groceries").
 */
export function closestNames(name: string, names: readonly string[]): string[] {
  const typed = looseKeyOf(name);
  return names
    .map((candidate) => {
      const key = looseKeyOf(candidate);
      // Containment counts only for words, not for a letter or two that most names hold.
      const contains = Math.min(typed.length, key.length) >= 3 && (key.includes(typed) || typed.includes(key));
      const near = contains ? 0 : distance(typed, key);
      return { name: candidate, near, limit: Math.max(2, Math.floor(Math.max(typed.length, key.length) / 3)) };
    })
    .filter((candidate) => candidate.near <= candidate.limit)
    .sort((a, b) => a.near - b.near || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((candidate) => candidate.name);
}

/** Edits between two strings (Levenshtein): how far a typed name is from a list's. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
