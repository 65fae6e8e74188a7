import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import { matchesSearch, searchTerms } from "../../src/object/tasks/search";
import { accountSql, maxUser } from "../helpers";

/**
 * The search index at scale, in workerd's own SQLite: 10,000 tasks with realistic titles (3 to 8
 * words, one in ten from another language) and notes on every third in one account's object, then as
 * many over five other accounts that use the same words. It prints what the index holds per task;
 * `node scripts/measure-search.mjs` gives page-level sizes and timings (docs/scaling.md).
 */
const TASKS = 10_000;
// 4 bound parameters per row, 25 rows per INSERT: 100, SQLite's limit per query in an object.
const ROWS_PER_INSERT = 25;

const WORDS =
  `buy milk bread eggs call mom dentist appointment renew passport book flight hotel pay rent bill water plants
clean kitchen laundry groceries email boss report review meeting prepare slides send invoice client project deadline
fix bug deploy release update website backup photos car service insurance tax doctor pharmacy gym birthday gift party
dinner restaurant tickets library school homework garden paint fence repair bike windows order coffee beans tea cheese
apples tomatoes rice pasta chicken soup recipe cake plan trip vacation weekend monday friday tomorrow budget bank loan
contract sign documents print package delivery refund support password phone laptop desk calendar schedule notes`.split(
    /\s+/,
  );
const OTHER =
  "café crème résumé Straße Müller Käse Geschenk mañana niño Zürich Kraków Москва 牛奶 会议 誕生日 시장".split(" ");

function sentence(seed: number, n: number): string {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out.push(s % 10 === 0 ? OTHER[s % OTHER.length]! : WORDS[s % WORDS.length]!);
  }
  return out.join(" ");
}

const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));

/** Tasks n = 0 … count-1, the n-th in the object of accounts[n % accounts.length]. */
async function seed(accounts: string[], count: number, prefix: string) {
  for (const [a, accountId] of accounts.entries()) {
    const mine = Array.from({ length: count }, (_, n) => n).filter((n) => n % accounts.length === a);
    await runInDurableObject(objectOf(accountId), (_instance, state) => {
      for (let i = 0; i < mine.length; i += ROWS_PER_INSERT) {
        const rows = mine.slice(i, i + ROWS_PER_INSERT);
        state.storage.sql.exec(
          `INSERT INTO tasks (id, title, notes, due) VALUES ${rows.map(() => "(?, ?, ?, ?)").join(", ")}`,
          ...rows.flatMap((n) => [
            `${prefix}-${String(n).padStart(6, "0")}`,
            sentence(n * 7 + 1, 3 + (n % 6)),
            n % 3 === 0 ? sentence(n * 13 + 5, 10 + (n % 16)) : null,
            `2027-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`,
          ]),
        );
      }
    });
  }
}

/**
 * The bytes the index's shadow tables hold (segments, their b-tree keys, per-row sizes), without the
 * pages' own overhead: workerd has no dbstat and does not allow PRAGMA page_count.
 */
const ftsBytes = async (accountId: string) =>
  (
    await accountSql<{ n: number }>(
      accountId,
      `SELECT (SELECT coalesce(sum(length(block)), 0) + 8 * count(*) FROM tasks_fts_data)
          + (SELECT coalesce(sum(length(term)), 0) + 16 * count(*) FROM tasks_fts_idx)
          + (SELECT coalesce(sum(length(sz)), 0) + 8 * count(*) FROM tasks_fts_docsize) AS n`,
    )
  )[0]!.n;

const matches = (accountId: string, q: string) =>
  runInDurableObject(
    objectOf(accountId),
    (_instance, state) =>
      drizzle(state.storage, { schema })
        .select({ id: schema.tasks.id })
        .from(schema.tasks)
        .where(and(matchesSearch(searchTerms(q)), isNull(schema.tasks.deletedAt)))
        .all().length,
  );

describe("search at scale", { timeout: 180_000 }, () => {
  it(`indexes ${TASKS.toLocaleString("en")} tasks of one account and finds them by their account's words only`, async () => {
    const user = await maxUser("search-scale");
    const others = await Promise.all(Array.from({ length: 5 }, (_, i) => maxUser(`search-scale-${i}`)));
    const before = await ftsBytes(user.accountId);
    await seed([user.accountId], TASKS, "scale-a");
    const one = (await ftsBytes(user.accountId)) - before;
    await seed(
      others.map((o) => o.accountId),
      TASKS,
      "scale-b",
    );
    console.log(`[search] tasks_fts holds ${(one / TASKS).toFixed(0)} bytes a task for one account of ${TASKS}`);
    expect(one / TASKS).toBeLessThan(250);
    // The same words in six accounts' objects: each finds its own tasks.
    const coffee = await matches(user.accountId, "coffee");
    expect(coffee).toBeGreaterThan(100);
    expect(await matches(others[0]!.accountId, "coffee")).toBeLessThan(coffee);
    expect(await matches(user.accountId, "café müller")).toBeGreaterThan(0);
  });
});
