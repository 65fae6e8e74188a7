import { env } from "cloudflare:workers";
import { and, asc, isNull, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { compiled } from "../../src/db/compiled";
import { tasks } from "../../src/db/schema";
import { keyAccountSql, verifiedKeyHash } from "../../src/domain/api-keys/service";
import { MAX_SEARCH_TERMS, matchesSearch, searchTerms, WORD_SEPARATORS } from "../../src/domain/tasks/search";
import { call, createTask, maxUser } from "../helpers";

/** The titles of the live tasks that match `q` within `account`, through the condition search.ts exports. */
async function found(account: string | SQL, q: string): Promise<string[]> {
  const rows = await createDb(env.DB)
    .select({ title: tasks.title })
    .from(tasks)
    .where(and(matchesSearch(account, searchTerms(q)), isNull(tasks.deletedAt)))
    .orderBy(asc(tasks.title));
  return rows.map((row) => row.title);
}

describe("searchTerms", () => {
  it("splits a query into words on the separators, drops repeats and punctuation, and keeps any script", () => {
    expect(searchTerms("  Milk, bread & (eggs) ")).toEqual(["Milk", "bread", "eggs"]);
    expect(searchTerms("e-mail l'eau 3.5")).toEqual(["e", "mail", "l", "eau", "3", "5"]);
    expect(searchTerms("milk MILK Milk")).toEqual(["milk"]);
    expect(searchTerms("Café cafe")).toEqual(["Café"]);
    expect(searchTerms("牛奶。明天")).toEqual(["牛奶", "明天"]);
    expect(searchTerms("")).toEqual([]);
    expect(searchTerms(" ,.;!?-()\"' ")).toEqual([]);
    expect(searchTerms("\u0301\u0308")).toEqual([]);
    expect(searchTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))).toHaveLength(MAX_SEARCH_TERMS);
  });

  it("leaves no FTS5 syntax in a word: quotes, operators and column filters are separators or plain words", () => {
    for (const q of ['milk" OR "bread', "NEAR(milk bread)", "title:milk", "^milk", "-milk", "milk*", "{title}: x"])
      for (const word of searchTerms(q)) expect(word, q).toMatch(/^[^"():*^{}\- ]+$/u);
  });
});

describe("the search index (tasks_fts)", () => {
  it("is kept by triggers that split on exactly WORD_SEPARATORS, and a tokenizer that splits on spaces", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, sql FROM sqlite_master WHERE name IN ('tasks_fts', 'tasks_fts_on_insert', 'tasks_fts_on_update')",
    ).all<{ name: string; sql: string }>();
    const sql = Object.fromEntries(results.map((row) => [row.name, row.sql]));
    expect(sql.tasks_fts).toContain("separators '' ''");
    const expected = [...WORD_SEPARATORS].filter((c) => c !== " ").map((c) => c.codePointAt(0));
    for (const trigger of ["tasks_fts_on_insert", "tasks_fts_on_update"]) {
      const codes = [...sql[trigger]!.matchAll(/char\((\d+)\)/g)].map((m) => Number(m[1]));
      // One chain for the title and one for the notes.
      expect(codes, trigger).toEqual([...expected, ...expected]);
    }
  });

  it("finds word prefixes in title and notes, ignoring case and diacritics, all words required", async () => {
    const user = await maxUser("search-match");
    await createTask(user.key, { title: "Renew passport", notes: "Bring two photos." });
    await createTask(user.key, { title: "Café crème with Zoë" });
    await createTask(user.key, { title: "Send the e-mail (milk)" });
    await createTask(user.key, { title: "cafe SHOPPING" });
    const mine = (q: string) => found(user.accountId, q);
    expect(await mine("pass")).toEqual(["Renew passport"]);
    expect(await mine("RENEW")).toEqual(["Renew passport"]);
    expect(await mine("photo")).toEqual(["Renew passport"]);
    expect(await mine("cafe")).toEqual(["Café crème with Zoë", "cafe SHOPPING"]);
    expect(await mine("CAFÉ")).toEqual(["Café crème with Zoë", "cafe SHOPPING"]);
    expect(await mine("creme zoe")).toEqual(["Café crème with Zoë"]);
    expect(await mine("cafe passport")).toEqual([]);
    expect(await mine("mail")).toEqual(["Send the e-mail (milk)"]);
    expect(await mine("e-mail")).toEqual(["Send the e-mail (milk)"]);
    expect(await mine("milk")).toEqual(["Send the e-mail (milk)"]);
    expect(await mine("assport")).toEqual([]);
    expect(await mine("")).toEqual([]);
    expect(await mine("?!")).toEqual([]);
  });

  it("takes any script's words; text without spaces is found by its beginning", async () => {
    const user = await maxUser("search-scripts");
    await createTask(user.key, { title: "牛奶 2升" });
    await createTask(user.key, { title: "买牛奶。明天开会" });
    await createTask(user.key, { title: "Москва встреча" });
    await createTask(user.key, { title: "Ελλάδα ταξίδι" });
    const mine = (q: string) => found(user.accountId, q);
    expect(await mine("牛奶")).toEqual(["牛奶 2升"]);
    expect(await mine("买牛")).toEqual(["买牛奶。明天开会"]);
    expect(await mine("明天")).toEqual(["买牛奶。明天开会"]);
    expect(await mine("москва")).toEqual(["Москва встреча"]);
    expect(await mine("ταξ")).toEqual(["Ελλάδα ταξίδι"]);
  });

  it("follows edits and deletions, and never finds another account's tasks", async () => {
    const user = await maxUser("search-owner");
    const stranger = await maxUser("search-stranger");
    const task = await createTask(user.key, { title: "Water the plants" });
    const gone = await createTask(user.key, { title: "Water the lawn" });
    // The stranger's words even start with the owner's code: words are indexed under their own account's.
    const code = user.accountId.replaceAll("-", "");
    await createTask(stranger.key, { title: `Water everything ${code}secret`, notes: "plants lawn" });
    await call(`/api/v1/tasks/${task.id}`, {
      method: "PATCH",
      token: user.key,
      body: { title: "Feed the cat", notes: "and water" },
    });
    await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
    expect(await found(user.accountId, "water")).toEqual(["Feed the cat"]);
    expect(await found(user.accountId, "plants")).toEqual([]);
    expect(await found(user.accountId, "lawn")).toEqual([]);
    expect(await found(user.accountId, "secret")).toEqual([]);
    expect(await found(stranger.accountId, "water")).toEqual([`Water everything ${code}secret`]);
    expect(await found(stranger.accountId, "cat")).toEqual([]);
  });

  it("scopes by an API key's account subquery too, and finds nothing for an unknown key", async () => {
    const user = await maxUser("search-key");
    await createTask(user.key, { title: "Book the dentist" });
    expect(await found(keyAccountSql(await verifiedKeyHash(user.key)), "dent")).toEqual(["Book the dentist"]);
    expect(await found(keyAccountSql("0".repeat(64)), "dent")).toEqual([]);
  });

  it("works in a compiled statement, with the account and the words' JSON as placeholders", async () => {
    const user = await maxUser("search-compiled");
    await createTask(user.key, { title: "Pick up the parcel" });
    const search = compiled<{ account: string; terms: string }>((db, p) =>
      db
        .select({ title: tasks.title })
        .from(tasks)
        .where(and(matchesSearch(p.account, p.terms), isNull(tasks.deletedAt))),
    );
    const run = (q: string) =>
      search.run(createDb(env.DB), { account: user.accountId, terms: JSON.stringify(searchTerms(q)) });
    expect(await run("parc")).toEqual([{ title: "Pick up the parcel" }]);
    expect(await run("")).toEqual([]);
  });

  it("reads the index, then the account's matching tasks by rowid: never a scan of tasks", async () => {
    const user = await maxUser("search-plan");
    const db = createDb(env.DB);
    const plans = [];
    for (const account of [user.accountId, keyAccountSql(await verifiedKeyHash(user.key))]) {
      const { sql, params } = db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(matchesSearch(account, ["milk", "bread"]), isNull(tasks.deletedAt)))
        .toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans.push(results.map((row) => row.detail).join("\n"));
    }
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH tasks USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plan).toMatch(/SCAN tasks_fts VIRTUAL TABLE INDEX/);
      expect(plan).not.toMatch(/SCAN tasks\b(?!_fts)/);
    }
  });
});
