import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import { matchesSearch, searchTerms, WORD_SEPARATORS } from "../../src/object/tasks/search";
import { accountSql, call, createTask, json, maxUser } from "../helpers";

/**
 * Property: whatever sequence of creates, patches and deletes the REST API receives, the search
 * index (tasks_fts, kept by triggers) agrees with a plain scan of the tasks: for every query, the
 * tasks that matchesSearch finds are exactly the live tasks of that account that have, for each
 * word of the query, a word starting with it (ignoring case and diacritics). Each account's tasks and
 * index live in its own object, so both sides are read there.
 */
const RUNS = 25;

// Pieces of words: accents and case that the index folds, a few scripts, digits.
const SYLLABLES = ["ca", "fé", "Fe", "mil", "k", "brö", "Tch", "pass", "ñu", "Zoë", "牛", "奶", "ré", "SU", "9", "x"];
const SEPARATORS = [" ", "  ", "-", ", ", " (", ") ", "。", "\n", "'", "/"];

const word = fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
const text = fc
  .array(fc.tuple(word, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 4 })
  .map((pairs) => pairs.map(([w, s]) => w + s).join(""));

type Command =
  | { kind: "create"; account: number; title: string; notes: string | null }
  | { kind: "patch"; pick: number; title: string | null; notes: string | null }
  | { kind: "delete"; pick: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), account: fc.nat(1), title: text, notes: fc.option(text) }),
  fc.record({
    kind: fc.constant("patch" as const),
    pick: fc.nat(),
    title: fc.option(text),
    notes: fc.option(fc.oneof(text, fc.constant(""))),
  }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
);

/** What the index folds: case and (Latin) diacritics. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const separators = new RegExp(`[${WORD_SEPARATORS.replace(/[\\\]^-]/g, "\\$&")}]+`, "u");
const wordsOf = (s: string | null) => (s ? s.split(separators).filter(Boolean).map(fold) : []);

type User = Awaited<ReturnType<typeof maxUser>>;
let users: User[];
const ids: { id: string; key: string }[] = [];

const { tasks } = schema;

/** A query on the account's own SQLite, inside its object. */
const inObject = <T>(accountId: string, query: (db: ReturnType<typeof drizzle<typeof schema>>) => T) =>
  runInDurableObject(env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId)), (_instance, state) =>
    query(drizzle(state.storage, { schema })),
  );

/** The plain scan: every live task of the account, matched word by word in JavaScript. */
async function scanned(accountId: string, q: string): Promise<string[]> {
  const rows = await inObject(accountId, (db) =>
    db
      .select({ id: tasks.id, title: tasks.title, notes: tasks.notes })
      .from(tasks)
      .where(isNull(tasks.deletedAt))
      .all(),
  );
  const terms = searchTerms(q).map(fold);
  if (!terms.length) return [];
  return rows
    .filter((row) => {
      const words = [...wordsOf(row.title), ...wordsOf(row.notes)];
      return terms.every((term) => words.some((w) => w.startsWith(term)));
    })
    .map((row) => row.id)
    .sort();
}

async function indexed(accountId: string, q: string): Promise<string[]> {
  const rows = await inObject(accountId, (db) =>
    db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(matchesSearch(searchTerms(q)), isNull(tasks.deletedAt)))
      .all(),
  );
  return rows.map((row) => row.id).sort();
}

async function apply(c: Command) {
  if (c.kind === "create") {
    const user = users[c.account]!;
    const task = await createTask(user.key, { title: c.title, ...(c.notes === null ? {} : { notes: c.notes }) });
    ids.push({ id: task.id, key: user.key });
    return;
  }
  if (!ids.length) return;
  const { id, key } = ids[c.pick % ids.length]!;
  if (c.kind === "delete") {
    await call(`/api/v1/tasks/${id}`, { method: "DELETE", token: key });
    return;
  }
  const body: Record<string, string> = {};
  if (c.title !== null) body.title = c.title;
  if (c.notes !== null) body.notes = c.notes;
  await call(`/api/v1/tasks/${id}`, { method: "PATCH", token: key, body });
}

beforeAll(async () => {
  users = [await maxUser("search-prop-a"), await maxUser("search-prop-b")];
});

describe("the search index against a plain scan", { timeout: 120_000 }, () => {
  it(`agrees after any sequence of creates, patches and deletes (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 12 }),
        fc.array(text, { maxLength: 4 }),
        async (commands, queries) => {
          for (const c of commands) await apply(c);
          // Every syllable (a word prefix), and whole generated queries of several words.
          for (const q of [...SYLLABLES, ...queries]) {
            for (const user of users)
              expect(await indexed(user.accountId, q), q).toEqual(await scanned(user.accountId, q));
          }
          // Each live task is in its account's index exactly once, and nothing else is.
          for (const user of users) {
            const rowids = async (query: string) =>
              (await accountSql<{ r: number }>(user.accountId, query)).map((row) => row.r).sort((a, b) => a - b);
            expect(await rowids("SELECT rowid AS r FROM tasks_fts")).toEqual(
              await rowids("SELECT rowid AS r FROM tasks WHERE deleted_at IS NULL"),
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
    for (const user of users)
      await accountSql(user.accountId, "INSERT INTO tasks_fts(tasks_fts) VALUES('integrity-check')");
    const listed = await json(await call("/api/v1/tasks", { token: users[0]!.key }));
    console.log(
      `[hardening] search index: ${RUNS} runs, ${ids.length} tasks written, ${listed.meta.count} live in one account`,
    );
  });
});
