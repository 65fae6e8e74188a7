/** List names for quick add's `#List`: the service's list-name rule, and the names a typo may mean. */

export interface QuickAddList {
  id: string;
  name: string;
}

/**
 * List names compare like this: as nameKeyOf (src/object/lists/names.ts) does, ignoring case ("ß" is
 * "SS"), and also spaces, dashes and underscores (issue 34): "Weekly-shop", "weekly_shop" and
 * "WEEKLY SHOP" are "Weekly shop". Here for the page and import, which cannot import the object's module.
 */
export const listKey = (name: string) =>
  name
    .normalize("NFC")
    .toUpperCase()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");

/** Up to three existing names within a few edits of `name` (ignoring case and separators), nearest first. */
export function closestNames(name: string, lists: QuickAddList[]): string[] {
  const key = listKey(name);
  return lists
    .map((l) => ({ name: l.name, d: distance(key, listKey(l.name)) }))
    .filter(({ name: n, d }) => d <= Math.max(2, Math.ceil(Math.max(key.length, listKey(n).length) / 3)))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((l) => l.name);
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
