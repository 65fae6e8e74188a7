import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, asc, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import { MAX_SEARCH_TERMS, matchesSearch, searchTerms, WORD_SEPARATORS } from "../../src/object/tasks/search";
import { accountSql, call, createTask, maxUser } from "../helpers";

const { tasks } = schema;
const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));

/** The titles of the account's live tasks that match `q`, through the condition search.ts exports, in its object. */
function found(accountId: string, q: string): Promise<string[]> {
  return runInDurableObject(objectOf(accountId), (_instance, state) =>
    drizzle(state.storage, { schema })
      .select({ title: tasks.title })
      .from(tasks)
      .where(and(matchesSearch(searchTerms(q)), isNull(tasks.deletedAt)))
      .orderBy(asc(tasks.title))
      .all()
      .map((row) => row.title),
  );
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
    const user = await maxUser("search-triggers");
    const results = await accountSql<{ name: string; sql: string }>(
      user.accountId,
      "SELECT name, sql FROM sqlite_master WHERE name IN ('tasks_fts', 'tasks_fts_on_insert', 'tasks_fts_on_update')",
    );
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

  it("reads the index, then the account's matching tasks by rowid: never a scan of tasks", async () => {
    const user = await maxUser("search-plan");
    await createTask(user.key, { title: "milk and bread" });
    const plan = await runInDurableObject(objectOf(user.accountId), (_instance, state) => {
      const { sql, params } = drizzle(state.storage, { schema })
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(matchesSearch(["milk", "bread"]), isNull(tasks.deletedAt)))
        .toSQL();
      return state.storage.sql
        .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...(params as SqlStorageValue[]))
        .toArray()
        .map((row) => row.detail)
        .join("\n");
    });
    expect(plan).toMatch(/SEARCH tasks USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan).toMatch(/SCAN tasks_fts VIRTUAL TABLE INDEX/);
    expect(plan).not.toMatch(/SCAN tasks\b(?!_fts)/);
  });
});
