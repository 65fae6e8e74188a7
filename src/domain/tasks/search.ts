import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { tasks } from "../../db/schema";

/**
 * Word-prefix search over tasks' title and notes, on the FTS5 table `tasks_fts` (migration 0008).
 *
 * Every word is indexed as the account's code (its id without hyphens) followed by the word, so
 * each account has terms of its own: a query, prefix expansion included, reads only its account's
 * part of the index, however many other accounts share the database (docs/scaling.md has the
 * numbers). The tokenizer (unicode61, remove_diacritics 2) folds case and Latin diacritics on both
 * sides, so "cafe" finds "Café". Words are runs of characters between WORD_SEPARATORS, in any
 * script; text without spaces (Chinese, Japanese, Thai) is one word up to the next separator, found
 * by its beginning.
 */

/**
 * What separates words, in the index and in a query alike. The triggers of migration 0008 turn each
 * of these into a space before the account's code is put in front of every word, so this list and
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
export function searchTerms(q: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of q.toWellFormed().split(separators)) {
    const key = word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    terms.push(word);
    if (terms.length === MAX_SEARCH_TERMS) break;
  }
  return terms;
}

/** An account id, a key's account subquery (caller.ts), or a compiled statement's placeholder for either. */
type Account = string | SQL | Placeholder;

/** The account's code in the index: its id without hyphens, as the triggers of migration 0008 write it. */
const accountCode = (account: Account) => sql`replace(${account}, '-', '')`;

/**
 * The FTS5 MATCH text, built by SQLite so that `account` may be a subquery (an API key's account):
 * `"<code><word>"* AND …`. Each word is a quoted string (no FTS5 syntax inside can act: `"` is a
 * separator, and doubled anyway), so one token; `*` makes it a prefix. No words, or no account (a
 * refused key), give `""`, which matches nothing.
 */
const matchText = (account: Account, termsJson: string | SQL | Placeholder) =>
  sql`(SELECT coalesce(group_concat('"' || ${accountCode(account)} || replace(value, '"', '""') || '"*', ' AND '), '""')
       FROM json_each(${termsJson}))`;

/**
 * "The task matches these words, within this account", as a condition on `tasks`. `terms` come from
 * searchTerms, or are a placeholder for their JSON text in a compiled statement. The FTS rows are
 * found by the account's own terms; the row's account_id is checked again (`+` keeps SQLite from
 * choosing the account index over the search), so isolation never rests on the index alone.
 */
export function matchesSearch(account: Account, terms: readonly string[] | SQL | Placeholder): SQL {
  const termsJson = Array.isArray(terms) ? JSON.stringify(terms) : (terms as SQL | Placeholder);
  return sql`(${tasks}.rowid IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ${matchText(account, termsJson)})
              AND +${tasks.accountId} = ${account})`;
}
