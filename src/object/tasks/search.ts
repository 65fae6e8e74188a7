import { and, like, or, type SQL, sql } from "drizzle-orm";
import { hasLabelWhere } from "../labels/labelled";
import { labels, tasks } from "../schema";

/**
 * Word-prefix search over tasks' title and notes, on the FTS5 table `tasks_fts` (the objects' migration 0001),
 * and over their labels' names (`labels.search_key`).
 *
 * Each account's index is in its own object, so a query reads only that account's words. The tokenizer (unicode61, remove_diacritics 2) folds case and Latin diacritics on both
 * sides, so "cafe" finds "Café". Words are runs of characters between WORD_SEPARATORS, in any
 * script; text without spaces (Chinese, Japanese, Thai) is one word up to the next separator, found
 * by its beginning.
 */

/**
 * What separates words, in the index and in a query alike. The triggers of the objects' migration 0001 turn each
 * of these into a space, so this list and
 * the migration must agree (test/domain/search.test.ts reads the triggers back). Changing it needs a
 * migration that rebuilds tasks_fts.
 */
export const WORD_SEPARATORS = [
  // Whitespace, NUL (which the tokenizer splits on by itself) and ASCII punctuation.
  " \t\n\r\v\f\u00a0\u3000\0",
  "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
  // Typographic punctuation, and the CJK punctuation that ends words in text without spaces.
  "…–—‘’‚“”„«»‹›•·¿¡",
  "、。，！？：；（）「」『』【】《》〈〉・～",
].join("");

const separators = new RegExp(`[${WORD_SEPARATORS.replace(/[\\\]^-]/g, "\\$&")}]+`, "u");

/** More words than this in one query are ignored: each is one more lookup. */
export const MAX_SEARCH_TERMS = 16;

/**
 * The words of a user's query: split on WORD_SEPARATORS, each matched as a word prefix, all of them
 * required. Punctuation and spaces alone give no words (the caller decides: a condition on no words
 * matches nothing). A word of combining marks only is dropped: the tokenizer would fold it to nothing.
 */
/** A word with case and Latin diacritics folded, as the index's tokenizer folds it. */
const foldWord = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A label name's words, folded, each after a space: " phone call" is found by "ph" and "call", not by "all". */
export const searchKeyOf = (name: string) =>
  name
    .toWellFormed()
    .split(separators)
    .map(foldWord)
    .filter(Boolean)
    .map((word) => ` ${word}`)
    .join("");

export function searchTerms(q: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of q.toWellFormed().split(separators)) {
    const key = foldWord(word);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    terms.push(word);
    if (terms.length === MAX_SEARCH_TERMS) break;
  }
  return terms;
}

const inIndex = (match: string) => sql`${tasks}.rowid IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ${match})`;
/** A word as a quoted FTS5 string (no FTS5 syntax inside can act: `"` is a separator, and doubled anyway), a prefix. */
const prefixOf = (word: string) => `"${word.replaceAll('"', '""')}"*`;

/**
 * "The task matches these words" as a condition on `tasks`: each word starts a word of its title or notes (its
 * rows in `tasks_fts`, migration 0001) or of one of its labels' names, all of them required. A word holds no
 * `%` or `_` (both separators), so it is a plain LIKE prefix. No words match nothing.
 */
export function matchesSearch(terms: readonly string[]): SQL {
  if (!terms.length) return inIndex('""');
  return and(
    ...terms.map((word) => or(inIndex(prefixOf(word)), hasLabelWhere(like(labels.searchKey, `% ${foldWord(word)}%`)))),
  )!;
}
