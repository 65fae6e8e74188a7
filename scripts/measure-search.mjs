// Measures the search index of migration 0008 in SQLite itself (node:sqlite, the SQLite version D1 runs):
// its size per task (dbstat pages), what it adds to a task write, and how long a page of search results
// takes in an account of 10,000 tasks and in a small one, as other accounts fill the database.
// Numbers go to docs/scaling.md. Needs Node 22 (node_modules/.bin/node): node scripts/measure-search.mjs
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

const BIG = 10_000;
const OTHERS = Number(process.argv[2] ?? 100_000);

const WORDS =
  `buy milk bread eggs call mom dentist appointment renew passport book flight hotel pay rent electricity bill
water plants clean kitchen bathroom laundry groceries email boss report quarterly review meeting prepare slides send
invoice client project deadline fix bug deploy release update website backup photos car service tires insurance tax
return doctor pharmacy prescription gym run yoga birthday gift party invite friends dinner reservation restaurant cinema
tickets concert library books borrow school pickup kids homework parents garden mow lawn trim hedge paint fence repair
bike chain oil change windows vacuum bedroom sheets wash order coffee beans tea sugar butter cheese apples bananas
oranges tomatoes onions garlic rice pasta chicken fish vegetables salad soup recipe cook bake cake cookies plan trip
vacation summer winter weekend monday friday morning tomorrow budget savings bank transfer loan mortgage contract sign
documents scan print package post office delivery refund complaint support password phone charger laptop keyboard
monitor desk chair pens notebook calendar schedule agenda minutes`.split(/\s+/);
const OTHER =
  "café crème résumé Straße Müller Käse Geschenk mañana niño Zürich Kraków Москва 牛奶 会议 誕生日 시장".split(" ");
let state = 42;
const random = () => {
  state = (state * 1664525 + 1013904223) >>> 0;
  return state / 2 ** 32;
};
const sentence = (n) =>
  Array.from({ length: n }, () =>
    random() < 0.1 ? OTHER[Math.floor(random() * OTHER.length)] : WORDS[Math.floor(random() * WORDS.length)],
  ).join(" ");
const uuid = (n) => `0193${String(n).padStart(4, "0")}-8a2b-7c3d-9e4f-${String(n).padStart(12, "0")}`;

const dir = mkdtempSync(join(tmpdir(), "measure-search-"));
const db = new DatabaseSync(join(dir, "db.sqlite"));
db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
for (const file of readdirSync("migrations")
  .filter((f) => f.endsWith(".sql"))
  .sort())
  for (const statement of readFileSync(join("migrations", file), "utf8").split("--> statement-breakpoint"))
    if (statement.trim()) db.exec(statement);

const addAccount = db.prepare("INSERT INTO accounts (id, email, password_hash) VALUES (?, ?, 'x')");
const insert = db.prepare("INSERT INTO tasks (id, account_id, title, notes, due) VALUES (?, ?, ?, ?, '2027-01-01')");
let taskNumber = 0;
const addTask = (account) =>
  insert.run(`t${++taskNumber}`, account, sentence(3 + Math.floor(random() * 6)), taskNumber % 3 ? null : sentence(15));
function fill(accounts, perAccount) {
  db.exec("BEGIN");
  for (let i = 0; i < perAccount; i++) for (const account of accounts) addTask(account);
  db.exec("COMMIT");
}
const big = uuid(1);
const small = uuid(2);
for (const [n, account] of [big, small].entries()) addAccount.run(account, `${n}@example.com`);
fill([big], BIG);
fill([small], 100);

const pages = (like) => db.prepare("SELECT coalesce(sum(pgsize), 0) AS n FROM dbstat WHERE name LIKE ?").get(like).n;
const perTask = (bytes) => (bytes / (BIG + 100)).toFixed(0);
console.log(
  `size (dbstat pages, ${BIG + 100} tasks): tasks_fts ${perTask(pages("tasks_fts%"))} bytes a task; ` +
    `tasks and their indexes ${perTask(pages("tasks") + pages("tasks_%idx"))}; lists ${perTask(pages("lists%"))}`,
);

// The condition of src/object/tasks/search.ts, in SQL.
const condition = `tasks.rowid IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH
  (SELECT coalesce(group_concat('"' || replace(?1, '-', '') || replace(value, '"', '""') || '"*', ' AND '), '""') FROM json_each(?2)))
  AND +tasks.account_id = ?1`;
const fromIndex = db.prepare(`SELECT id FROM tasks WHERE deleted_at IS NULL AND ${condition} ORDER BY id LIMIT 51`);
const walking = db.prepare(
  `SELECT id FROM tasks WHERE account_id = ?1 AND deleted_at IS NULL AND ${condition} ORDER BY id LIMIT 51`,
);
const page = db.prepare(
  "SELECT id, title FROM tasks WHERE account_id = ? AND deleted_at IS NULL ORDER BY id LIMIT 100",
);
const time = (run, n = 200) => {
  run();
  const started = performance.now();
  for (let i = 0; i < n; i++) run();
  return ((performance.now() - started) * 1000) / n;
};
const QUERIES = ["c", "co", "coffee", "cafe", "milk bread", "牛奶", "zzz"];
function searchTimes(label) {
  console.log(`search, a page of 51 in id order (${label}), µs:`);
  for (const q of QUERIES) {
    const terms = JSON.stringify(q.split(" "));
    const cells = [big, small].map(
      (a) =>
        `${time(() => fromIndex.all(a, terms)).toFixed(0)} from the index / ${time(() => walking.all(a, terms)).toFixed(0)} walking the account`,
    );
    console.log(
      `  "${q}": ${fromIndex.all(big, terms).length} found; 10,000 tasks: ${cells[0]}; 100 tasks: ${cells[1]}`,
    );
  }
  console.log(`  a page of 100 without search: ${time(() => page.all(big)).toFixed(0)}`);
}
searchTimes("no other account");
const others = Array.from({ length: OTHERS / 100 }, (_, i) => uuid(i + 3));
for (const [n, account] of others.entries()) addAccount.run(account, `other${n}@example.com`);
const ftsBefore = pages("tasks_fts%");
fill(others, 100);
console.log(
  `size of ${OTHERS.toLocaleString("en")} more tasks in accounts of 100: tasks_fts ${((pages("tasks_fts%") - ftsBefore) / OTHERS).toFixed(0)} bytes a task ` +
    "(each account has its own terms, so small accounts pay more per task)",
);
searchTimes(`${OTHERS.toLocaleString("en")} tasks of ${others.length} other accounts beside`);

// What the index adds to a write: the same writes with and without its triggers, one transaction each.
function writes() {
  const ids = [];
  const rename = db.prepare("UPDATE tasks SET title = ? WHERE id = ?");
  const drop = db.prepare("UPDATE tasks SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?");
  const inserted = time(() => {
    ids.push(`w${++taskNumber}`);
    insert.run(ids.at(-1), small, sentence(6), null);
  }, 2000);
  let i = 0;
  const renamed = time(() => rename.run(sentence(6), ids[i++ % ids.length]), 2000);
  i = 0;
  const deleted = time(() => drop.run(ids[i++]), 2000);
  return `insert ${inserted.toFixed(0)}, title change ${renamed.toFixed(0)}, delete (tombstone) ${deleted.toFixed(0)}`;
}
const withIndex = writes();
for (const t of ["insert", "update", "delete"]) db.exec(`DROP TRIGGER tasks_fts_on_${t}`);
console.log(`a write, µs (each its own transaction): with the index ${withIndex}; without ${writes()}`);
db.close();
rmSync(dir, { recursive: true, force: true });
