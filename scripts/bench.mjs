// npm run bench: starts its own `wrangler dev` (rate limits off, request logging off, benchmark
// route on) on a free 127.0.0.1 port with a throwaway D1, seeds accounts with 100 and 1,000 tasks (and
// one of 10,000 for the search rows, only when one of them runs), and measures each request with
// autocannon at 1 and 10 connections. Prints a table and writes bench/results.json with every figure
// and its ratio to baseline (b), the one-D1-query route, and each task row's ratio to the object floor,
// one call to an account object (the hop every task request makes).
//
// Exits non-zero only on errors (setup failure, a non-expected status or a socket error under
// load), never on a timing: targets are reported, not enforced. See bench/README.md.
//   BENCH_DURATION  seconds per row and connection count, run as that many 1 s slices (default 5)
//   BENCH_WARMUP    seconds of unrecorded warm-up before each row (default 1)
//   BENCH_ROWS      comma-separated row ids to run (e.g. "a,list100"); (b) and the object floor always run
//   BENCH_COMPARE   an earlier design's results.json: checks each task row's ratio to its floor against it
//   BENCH_D1_DIR    where the throwaway D1 lives (default /dev/shm with 1 GiB free, else the temp dir)
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import {
  compareDesigns,
  formatInterval,
  interval90,
  isClear,
  KEEP_SHARE,
  percentile,
  round,
  TASK_ROWS,
} from "./bench-compare.mjs";

const root = resolve(import.meta.dirname, "..");
const DURATION = Math.max(1, Math.round(Number(process.env.BENCH_DURATION ?? 5)));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const CONNECTIONS = [1, 10];
const BASELINE = "b";
// The task rows' floor: one call to an account object that does nothing (GET /_bench/object).
const OBJECT_FLOOR = "object";
const env = {
  ...process.env,
  // Wrangler needs Node >= 22.12: prefer the pinned binary in node_modules/.bin.
  PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};
const versionOf = (pkg) => JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")).version;
// statfs types of the file systems a bench is likely to meet (linux/magic.h); others by number.
const FILESYSTEMS = new Map([
  [0x01021994, "tmpfs: RAM"],
  [0xef53, "ext4 (or ext2/3): disk"],
  [0x9123683e, "btrfs: disk"],
  [0x58465342, "xfs: disk"],
  [0x794c7630, "overlayfs"],
]);
const freeBytesOf = (dir) => {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return 0;
  }
};
const filesystemOf = (dir) => {
  try {
    const { type } = statfsSync(dir);
    return FILESYSTEMS.get(type) ?? `file system type 0x${type.toString(16)}`;
  } catch {
    return "unknown file system";
  }
};

// ---------------------------------------------------------------- server

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer().once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function run(cmd, args) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0 ? ok(out) : fail(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${out}`)),
    );
  });
}

let server;
let persistDir;
function cleanup() {
  // The server runs in its own process group: wrangler, esbuild and workerd go together.
  if (server?.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  }
  if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  persistDir = undefined;
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}

async function startServer(port, adminToken) {
  const args = [
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--log-level",
    "error",
    "--persist-to",
    persistDir,
    "--show-interactive-dev-session=false",
    "--var",
    "RATE_LIMITS:off",
    "--var",
    "BENCH_ROUTES:on",
    "--var",
    `ADMIN_TOKEN:${adminToken}`,
    // Signs the bench's keys (src/domain/credential-mac.ts): any value will do for one run.
    "--var",
    `CREDENTIAL_SECRET:${randomBytes(32).toString("base64url")}`,
  ];
  const started = performance.now();
  server = spawn("wrangler", args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  server.stdout.on("data", (d) => (log += d));
  server.stderr.on("data", (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  while (performance.now() - started < 90_000) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited ${server.exitCode}\n${log}`);
    const res = await fetch(`${base}/api/v1/`).catch(() => undefined);
    if (res?.ok) return { base, readyMs: Math.round(performance.now() - started), log: () => log };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`wrangler dev did not answer within 90 s\n${log}`);
}

// ---------------------------------------------------------------- HTTP helpers

let base;
async function call(path, { method = "GET", token, body, headers = {} } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

async function must(path, options, expected) {
  const res = await call(path, options);
  if (res.status !== expected)
    throw new Error(
      `${options?.method ?? "GET"} ${path}: expected ${expected}, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  return res.text ? JSON.parse(res.text) : undefined;
}

async function maxAccount(label, adminToken) {
  const email = `bench-${label}-${randomBytes(4).toString("hex")}@example.com`;
  const { token } = await must(
    "/auth/signup",
    { method: "POST", body: { email, password: randomBytes(12).toString("base64url") } },
    201,
  );
  await must("/admin/memberships", { method: "PUT", token: adminToken, body: { email, plan: "max" } }, 200);
  const { key } = await must("/account/api-keys", { method: "POST", token, body: { name: `bench ${label}` } }, 201);
  return key;
}

async function seedTasks(key, count) {
  let next = 0;
  const ids = [];
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const task = await must(
        "/api/v1/tasks",
        {
          method: "POST",
          token: key,
          body: { title: `Seeded task ${i}`, notes: "Benchmark data.", due: "2026-12-24" },
        },
        201,
      );
      ids.push(task.id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids;
}

// The search rows' account: 10,000 tasks with titles a to-do list has (templates filled from small
// pools, some words from other languages), a note on every third, drawn by a fixed generator so that
// every run seeds the same tasks. SEARCH_WORD matches about 3 % of them (printed and checked at seeding).
const SEARCH_TASKS = 10_000;
const SEARCH_WORD = "cafe";
const POOLS = {
  g: "milk|bread|eggs|coffee beans|oat milk|bananas|apples|tomatoes|onions|garlic|rice|pasta|cheese|butter|olive oil|yoghurt|spinach|chicken|salmon|dish soap|toilet paper|batteries|Käse|croissants|牛奶",
  p: "mom|dad|grandma|Anna|Ben|Carlos|Priya|Jonas|Mei|the landlord|the plumber|the bank|the insurance company|the school|Dr. Müller|the vet|the dentist|the accountant|the electrician|the garage|IT support|the recruiter",
  t: "the invoice|the contract|the weekend|the birthday party|the rent|the quarterly report|the car repair|the holiday plans|the school trip|the leaking tap|the new lease|the job offer|the refund|the delivery|next week's meeting|the café booking",
  d: "passport|driving licence|gym membership|car insurance|library card|ID card|health insurance card|domain name|streaming subscription|parking permit",
  bill: "electricity|water|phone|internet|credit card|council tax|rent|Kita",
  r: "kitchen|bathroom|garage|balcony|fridge|oven|windows|car|attic|desk",
  b: "flight to Lisbon|hotel in Kraków|train to Zürich|table at the Italian place|haircut|dentist appointment|vet appointment|car service|massage|concert tickets|campsite for August|flat in Porto",
  w: "slides|the budget|the release notes|the quarterly report|the job application|the tax return|the project plan|the onboarding doc|the newsletter|the pull request|the meeting agenda|the March invoice",
  day: "Monday|Tuesday|Thursday|Friday|the weekend|tomorrow|next week|the offsite",
  th: "bike tyre|leaking tap|printer|garden gate|laptop charger|shower head|wifi router|kitchen drawer|car wipers",
  a: "dentist check-up|eye test|blood test|annual physical|parent-teacher meeting|car inspection|flu jab|smear test",
};
const TITLES = [
  "Buy {g}",
  "Buy {g} and {g}",
  "Pick up {g} on the way home",
  "Call {p}",
  "Call {p} about {t}",
  "Email {p} about {t}",
  "Reply to {p}",
  "Book {b}",
  "Renew {d}",
  "Pay the {bill} bill",
  "Clean the {r}",
  "Fix the {th}",
  "Schedule {a}",
  "Prepare {w} for {day}",
  "Send {w} to {p}",
  "Review {w}",
  "Finish {w} by {day}",
  "Cancel {d}",
  "Ask {p} about {t}",
  "Water the plants",
  "Take out the recycling",
  "Go for a run",
  "Meal prep for the week",
  "Back up the photos",
  "Change the bed sheets",
  "Mow the lawn",
  "Plan Mei's birthday",
  "Read chapter 5",
  "Declutter the wardrobe",
  "Submit the expense report",
  "Update my CV",
  "Learn 20 Spanish words",
  "Defrost the freezer",
  "Kaufe Geschenk für Oma",
];
const NOTES = [
  "Check the receipt first.",
  "They close early on Fridays, go before 5 pm.",
  "Use the shared card.",
  "Ask about the member discount.",
  "Bring the old one, two photos and the printed form.",
  "Reference number is in last week's email.",
  "Only if it is still on sale.",
  "See the list on the fridge.",
  "Anna has the details.",
  "Moved from last week.",
  "Needs the signed contract attached.",
  "Budget: 150 €.",
  "Link in the team chat.",
  "Remember the parking ticket.",
  "Call first to confirm the opening hours.",
  "Compare at least three offers.",
  "Café on the corner does it too.",
  "Not urgent, but before the holidays.",
];
function searchSeed(count) {
  let state = 19;
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const pools = Object.fromEntries(Object.entries(POOLS).map(([k, v]) => [k, v.split("|")]));
  return Array.from({ length: count }, (_, i) => {
    const task = {
      title: pick(TITLES).replace(/\{(\w+)\}/g, (_, k) => pick(pools[k])),
      due: `2027-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
    };
    if (i % 3 === 0) task.notes = random() < 0.5 ? pick(NOTES) : `${pick(NOTES)} ${pick(NOTES)}`;
    if (i % 11 === 0) task.important = true;
    return task;
  });
}
/** Word-prefix match as the index sees this seed's text: case and diacritics folded, words between non-letters. */
const foldedWords = (text) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
const matchesWord = (task, word) => foldedWords(`${task.title} ${task.notes ?? ""}`).some((w) => w.startsWith(word));
// Spellings of SEARCH_WORD that the index folds to it (case, Latin diacritics): each is a query of
// its own for the listings an isolate holds (listing-cache.ts), and there are more of them than it
// can hold (8 MB, about 25 KB a page of 50 here): taken in turn, every search is read.
const FOLDS = {
  a: "aAàáâäÀÁÂÄ",
  c: "cCçćčÇĆČ",
  e: "eEéèêëÉÈÊË",
  f: "fF",
};
const spellings = [...SEARCH_WORD]
  .reduce((prefixes, letter) => prefixes.flatMap((p) => [...(FOLDS[letter] ?? letter)].map((form) => p + form)), [""])
  .filter((spelling) => spelling !== SEARCH_WORD);

/** Creates the given tasks through POST /api/v1/tasks, `workers` requests at a time. */
async function createTasks(key, bodies, workers = 8) {
  let next = 0;
  const create = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      await must("/api/v1/tasks", { method: "POST", token: key, body }, 201);
    }
  };
  await Promise.all(Array.from({ length: workers }, create));
}

/** MCP answers JSON or a one-event SSE stream; either way, the JSON-RPC message. */
function mcpMessage(text) {
  const data = text
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5))
    .join("");
  return JSON.parse(data || text);
}

// ---------------------------------------------------------------- measuring

// CPU time of the server (wrangler, its proxy workerd and the worker's workerd, one process group),
// read from /proc: unlike throughput, it does not move when autocannon or other processes take a
// core, so it is the steadier figure for comparing two versions of a route. Linux only; null elsewhere.
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();
// Also per thread: workerd runs a Worker, its Durable Objects (local D1) and wrangler's local
// services on one thread, so at 10 connections that thread is the bottleneck (about 90% busy) and a
// row's throughput ratio to (b) follows its CPU per response on that thread ("thread ms").
const ticksOf = (stat) => {
  // Fields after "(comm) ": state ppid pgrp … utime (11) stime (12), counted from state as 0.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pgrp: Number(fields[2]), ticks: Number(fields[11]) + Number(fields[12]) };
};
function serverCpuMs() {
  if (process.platform !== "linux" || !server?.pid) return null;
  let ticks = 0;
  const threads = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const proc = ticksOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
      if (proc.pgrp !== server.pid) continue;
      ticks += proc.ticks;
      for (const tid of readdirSync(`/proc/${pid}/task`))
        threads.set(tid, ticksOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")).ticks);
    } catch {}
  }
  const ms = (t) => (t * 1000) / ticksPerSecond;
  return { total: ms(ticks), threads: new Map([...threads].map(([tid, t]) => [tid, ms(t)])) };
}

/** CPU between two readings: the server's total, and its busiest thread's. */
function cpuBetween(before, after) {
  if (!before || !after) return { cpuMs: null, threadMs: null };
  let threadMs = 0;
  for (const [tid, ms] of after.threads) threadMs = Math.max(threadMs, ms - (before.threads.get(tid) ?? 0));
  return { cpuMs: after.total - before.total, threadMs };
}

/** One autocannon run; returns the raw samples so that slices of one row can be merged. */
function load(row, connections, seconds) {
  const sample = { latencies: [], statuses: {}, errors: 0, elapsed: 0, cpuMs: null, threadMs: null };
  const started = performance.now();
  const cpuBefore = serverCpuMs();
  const instance = autocannon({
    url: base + row.path,
    method: row.method,
    headers: row.headers,
    body: row.body,
    connections,
    duration: seconds,
    timeout: 10,
    // A path per request, for a row that must not repeat itself (search10kRead).
    ...(row.nextPath && { requests: [{ setupRequest: (request) => ({ ...request, path: row.nextPath() }) }] }),
  });
  // autocannon's histogram keeps whole milliseconds; these are the exact response times.
  instance.on("response", (_client, status, _bytes, ms) => {
    sample.latencies.push(ms);
    sample.statuses[status] = (sample.statuses[status] ?? 0) + 1;
  });
  instance.on("reqError", () => sample.errors++);
  return instance.then((result) => {
    sample.elapsed = (performance.now() - started) / 1000;
    Object.assign(sample, cpuBetween(cpuBefore, serverCpuMs()));
    sample.errors += result.timeouts;
    return sample;
  });
}

function summarize(row, slices) {
  const latencies = slices.flatMap((s) => s.latencies).sort((x, y) => x - y);
  const statuses = {};
  for (const s of slices)
    for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const elapsed = slices.reduce((t, s) => t + s.elapsed, 0);
  const sum = (key) => (slices.every((s) => s[key] !== null) ? slices.reduce((t, s) => t + s[key], 0) : null);
  const cpuMs = sum("cpuMs");
  const threadMs = sum("threadMs");
  const unexpected = Object.entries(statuses)
    .filter(([code]) => Number(code) !== row.expect)
    .reduce((n, [, c]) => n + c, 0);
  return {
    requests: latencies.length,
    rps: round(latencies.length / elapsed, 1),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    // Server CPU (all its processes) per response, in ms; /proc counts in 10 ms ticks, so per row
    // it is exact to about 10 ms / requests.
    serverCpuMsPerRequest: cpuMs === null || !latencies.length ? null : round(cpuMs / latencies.length, 3),
    // The busiest server thread's CPU per response (summed per 1 s slice), and how busy it was.
    busiestThreadMsPerRequest: threadMs === null || !latencies.length ? null : round(threadMs / latencies.length, 3),
    busiestThreadUtilisation: threadMs === null ? null : round(threadMs / 1000 / elapsed),
    // Throughput of each 1 s slice: their spread shows how steady the machine was.
    sliceRps: slices.map((s) => round(s.latencies.length / s.elapsed, 1)),
    statuses,
    unexpected,
    errors: slices.reduce((n, s) => n + s.errors, 0),
  };
}

// ---------------------------------------------------------------- main

const startedAt = new Date();
const startLoad = loadavg().map((x) => round(x));
const adminToken = randomBytes(24).toString("hex");
// The throwaway state (D1 and wrangler's trace store) lives in RAM (tmpfs) where the machine has it.
// It is deleted after the run, so syncing it to disk buys nothing, and on a virtual disk those syncs
// block workerd's one busy thread: measured here, 0.3–0.6 ms per task write on ext4 (bench/README.md,
// "Where the local state lives"). BENCH_D1_DIR=/tmp measures on disk.
// A run writes some 200 MB of traces there: a small /dev/shm (Docker gives 64 MB) falls back to disk.
const SHM_NEEDED_BYTES = 1024 ** 3;
const d1Parent = process.env.BENCH_D1_DIR ?? (freeBytesOf("/dev/shm") >= SHM_NEEDED_BYTES ? "/dev/shm" : tmpdir());
persistDir = mkdtempSync(join(d1Parent, "todo-bench-"));
const problems = [];
// Read before the run, so that a wrong path fails in a second, not after four minutes.
const compareFile = process.env.BENCH_COMPARE;
const earlier = compareFile && JSON.parse(readFileSync(resolve(compareFile), "utf8"));

console.log("Preparing: assets, local D1 migrations, wrangler dev …");
await run("npm", ["run", "--silent", "assets"]);
await run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir]);
// The write baseline's table: only in this throwaway database, never in a migration (src/http/bench.ts).
await run("wrangler", [
  "d1",
  "execute",
  "DB",
  "--local",
  "--persist-to",
  persistDir,
  "--command",
  "CREATE TABLE bench_writes (n INTEGER PRIMARY KEY, at TEXT NOT NULL)",
]);
const port = await freePort();
const started = await startServer(port, adminToken);
base = started.base;
console.log(`wrangler dev ready on ${base} after ${started.readyMs} ms`);

const only = process.env.BENCH_ROWS?.split(",").map((id) => id.trim());
const wanted = (id) => !only || id === BASELINE || id === OBJECT_FLOOR || only.includes(id);

const seedStart = performance.now();
// A `since` before the seed returns every task; list100Read varies it, so each request reads the page.
const beforeSeed = new Date(Date.now() - 60_000).toISOString();
const [key100, key1000, keyWrite] = await Promise.all([
  maxAccount("100", adminToken),
  maxAccount("1000", adminToken),
  maxAccount("write", adminToken),
]);
await seedTasks(key100, 100);
await seedTasks(key1000, 1000);
const [patchId] = await seedTasks(keyWrite, 1);
const seedMs = Math.round(performance.now() - seedStart);
console.log(`Seeded 100 + 1,000 tasks in ${seedMs} ms`);

// The search rows' account, only when one of them runs: 10,000 creates take a while.
let key10k;
let searchSeeded;
if (wanted("search10k") || wanted("search10kRead")) {
  const started = performance.now();
  const bodies = searchSeed(SEARCH_TASKS);
  key10k = await maxAccount("10k", adminToken);
  await createTasks(key10k, bodies, 16);
  const expected = bodies.filter((task) => matchesWord(task, SEARCH_WORD)).length;
  // The server must find what the seed says: every page of the search, counted.
  let found = 0;
  let cursor;
  do {
    const page = await must(
      `/api/v1/tasks?q=${SEARCH_WORD}&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      { token: key10k },
      200,
    );
    found += page.meta.count;
    cursor = page.meta.nextCursor;
  } while (cursor);
  if (found !== expected) throw new Error(`q=${SEARCH_WORD} found ${found} tasks, the seed has ${expected}`);
  // Another spelling finds the same page (the read-each-time row relies on it).
  const [plain, folded] = await Promise.all(
    [SEARCH_WORD, spellings.at(-1)].map((q) =>
      must(`/api/v1/tasks?q=${encodeURIComponent(q)}&limit=50`, { token: key10k }, 200),
    ),
  );
  if (JSON.stringify(plain.data) !== JSON.stringify(folded.data))
    throw new Error(`q=${spellings.at(-1)} and q=${SEARCH_WORD} found different pages`);
  searchSeeded = {
    tasks: SEARCH_TASKS,
    word: SEARCH_WORD,
    matching: found,
    ms: Math.round(performance.now() - started),
  };
  console.log(
    `Seeded ${SEARCH_TASKS.toLocaleString("en")} tasks for search in ${searchSeeded.ms} ms; q=${SEARCH_WORD} matches ${found} (${round((100 * found) / SEARCH_TASKS, 1)} %)`,
  );
}

const auth = (key) => ({ authorization: `Bearer ${key}` });
const json = { "content-type": "application/json" };
const mcpHeaders = (key) => ({ ...auth(key), ...json, accept: "application/json, text/event-stream" });
const toolCall = (name, args) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

// Calendar pack: `de` if the catalogue has it, else its first pack; the ETag comes from a first GET.
let packId = "de";
let etag;
const catalogue = await call("/api/v1/calendars");
if (catalogue.status === 200) {
  const ids = JSON.parse(catalogue.text).data.map((p) => p.id);
  if (!ids.includes(packId)) packId = ids[0];
  const pack = await call(`/api/v1/calendars/${packId}`);
  etag = pack.headers.get("etag") ?? undefined;
}

// The payload row: (b) padded to the size of the 100-task list, to tell the list's own work from moving its bytes.
const list100Bytes = Buffer.byteLength((await call("/api/v1/tasks", { token: key100 })).text);

const allRows = [
  { id: "a", label: "(a) GET /api/v1/ — no I/O", method: "GET", path: "/api/v1/", expect: 200 },
  { id: "b", label: "(b) GET /_bench/d1 — one SELECT 1", method: "GET", path: "/_bench/d1", expect: 200 },
  {
    id: OBJECT_FLOOR,
    label: "(o) GET /_bench/object — one call to an account object",
    method: "GET",
    path: "/_bench/object",
    expect: 200,
  },
  {
    id: "bWrite",
    label: "(b) as a write: one trivial INSERT (diagnostic)",
    method: "POST",
    path: "/_bench/d1",
    expect: 200,
  },
  {
    id: "bPayload",
    label: `(b) padded to ${list100Bytes} bytes, the 100-task list's size`,
    method: "GET",
    path: `/_bench/d1?pad=${list100Bytes}`,
    expect: 200,
  },
  {
    id: "list100",
    label: "GET /api/v1/tasks (100 tasks)",
    method: "GET",
    path: "/api/v1/tasks",
    headers: auth(key100),
    expect: 200,
  },
  {
    id: "list100Read",
    label: "GET /api/v1/tasks?since=… (100 tasks, read each time)",
    method: "GET",
    path: `/api/v1/tasks?since=${encodeURIComponent(beforeSeed)}`,
    // A new `since` on each request, a millisecond earlier each time (all before the seed: the same 100 tasks), so
    // the object's listing memo (src/domain/tasks/listing-memo.ts: the last query, until a write) never answers it.
    nextPath: (() => {
      let next = 0;
      const at = Date.parse(beforeSeed);
      return () => `/api/v1/tasks?since=${encodeURIComponent(new Date(at - (next++ % 10_000)).toISOString())}`;
    })(),
    headers: auth(key100),
    expect: 200,
  },
  {
    id: "list1000",
    label: "GET /api/v1/tasks (1,000 tasks)",
    method: "GET",
    path: "/api/v1/tasks",
    headers: auth(key1000),
    expect: 200,
  },
  // A search in the 10,000-task account: the FTS5 index, then the account's matching tasks by rowid,
  // a page of 50. Held like the lists (the same search, no write since), so this row measures a
  // repeated search's steady state. The next row reads the index and the page every time: the same
  // search, its word spelt another way on each request (spellings). Not `since` (never held either):
  // its tombstone statement walks the whole account, 10,000 rows, and would be measured instead.
  {
    id: "search10k",
    label: `GET /api/v1/tasks?q=${SEARCH_WORD}&limit=50 (10,000 tasks)`,
    method: "GET",
    path: `/api/v1/tasks?q=${SEARCH_WORD}&limit=50`,
    headers: key10k && auth(key10k),
    expect: 200,
  },
  {
    id: "search10kRead",
    label: `GET /api/v1/tasks?q=${SEARCH_WORD}&limit=50 (read each time)`,
    method: "GET",
    path: `/api/v1/tasks?q=${encodeURIComponent(spellings.at(-1))}&limit=50`,
    nextPath: (() => {
      let next = 0;
      return () => `/api/v1/tasks?q=${encodeURIComponent(spellings[next++ % spellings.length])}&limit=50`;
    })(),
    headers: key10k && auth(key10k),
    expect: 200,
  },
  {
    id: "create",
    label: "POST /api/v1/tasks",
    method: "POST",
    path: "/api/v1/tasks",
    headers: { ...auth(keyWrite), ...json },
    body: JSON.stringify({ title: "Bench task", due: "2026-12-24" }),
    expect: 201,
  },
  {
    id: "update",
    label: "PATCH /api/v1/tasks/{id}",
    method: "PATCH",
    path: `/api/v1/tasks/${patchId}`,
    headers: { ...auth(keyWrite), ...json },
    body: JSON.stringify({ title: "Bench task, patched" }),
    expect: 200,
  },
  // limit 100 so MCP returns the same 100 tasks as the REST row it is compared with (its default page is 50).
  {
    id: "mcpList",
    label: "MCP tools/call list_tasks (100 tasks)",
    method: "POST",
    path: "/mcp",
    headers: mcpHeaders(key100),
    body: toolCall("list_tasks", { limit: 100 }),
    expect: 200,
    mcp: true,
  },
  {
    id: "mcpCreate",
    label: "MCP tools/call create_task",
    method: "POST",
    path: "/mcp",
    headers: mcpHeaders(keyWrite),
    body: toolCall("create_task", { title: "Bench task via MCP" }),
    expect: 200,
    mcp: true,
  },
  {
    id: "pack",
    label: `GET /api/v1/calendars/${packId}`,
    method: "GET",
    path: `/api/v1/calendars/${packId}`,
    expect: 200,
  },
  {
    id: "pack304",
    label: `GET /api/v1/calendars/${packId} (If-None-Match → 304)`,
    method: "GET",
    path: `/api/v1/calendars/${packId}`,
    headers: etag ? { "if-none-match": etag } : {},
    expect: 304,
    needsEtag: true,
  },
];

const rows = allRows.filter((row) => wanted(row.id));

/** One request before the load: a 404 means the route has not landed yet; any other surprise is an error. */
async function preflight(row) {
  if (row.needsEtag && !etag) return { skip: "not available: no ETag on the pack response" };
  const res = await call(row.path, { method: row.method, headers: row.headers, body: row.body });
  if (res.status === 404) return { skip: "not available (404)" };
  if (res.status !== row.expect)
    return { error: `expected ${row.expect}, got ${res.status}: ${res.text.slice(0, 200)}` };
  if (row.mcp) {
    const message = mcpMessage(res.text);
    if (message.error || message.result?.isError)
      return { error: `MCP error: ${JSON.stringify(message.error ?? message.result).slice(0, 200)}` };
  }
  return { bytes: Buffer.byteLength(res.text) };
}

for (const row of rows) {
  const check = await preflight(row);
  if (check.skip || check.error) {
    Object.assign(row, check.skip ? { status: "skipped", note: check.skip } : { status: "error", note: check.error });
    if (check.error) problems.push(`${row.label}: ${check.error}`);
    console.log(`${row.label}: ${row.note}`);
    continue;
  }
  row.status = "ok";
  row.responseBytes = check.bytes;
  row.runs = {};
  if (WARMUP > 0) await load(row, 10, WARMUP);
}

// Rows take turns in 1 s slices, so a machine that slows down mid-run (other processes, thermal limits)
// slows every row alike and the ratios between rows hold.
const active = rows.filter((row) => row.status === "ok");
for (const c of CONNECTIONS) {
  const slices = new Map(active.map((row) => [row, []]));
  for (let round = 0; round < DURATION; round++) {
    for (const row of active) slices.get(row).push(await load(row, c, 1));
  }
  for (const row of active) {
    const r = summarize(row, slices.get(row));
    row.runs[c] = r;
    if (r.unexpected || r.errors)
      problems.push(
        `${row.label} @${c}: ${r.unexpected} unexpected statuses ${JSON.stringify(r.statuses)}, ${r.errors} errors`,
      );
    console.log(`${row.label} @${c}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
  }
}

// ---------------------------------------------------------------- ratios, targets, report

/** The rows as results.json keeps them: without the request's parts. */
const savedRows = () => rows.map(({ headers, body, mcp, needsEtag, nextPath, ...row }) => row);
const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
const ratio = (x, y) => (x !== null && y ? round(x / y) : null);
for (const row of rows) {
  for (const c of CONNECTIONS) {
    const r = row.runs?.[c];
    const b = byId[BASELINE].runs?.[c];
    if (r && b) r.ratioToB = { rps: ratio(r.rps, b.rps), p50: ratio(r.p50, b.p50), p99: ratio(r.p99, b.p99) };
    const o = byId[OBJECT_FLOOR]?.runs?.[c];
    if (r && o && TASK_ROWS.includes(row.id))
      r.ratioToObject = { rps: ratio(r.rps, o.rps), p50: ratio(r.p50, o.p50), p99: ratio(r.p99, o.p99) };
  }
}
// A task row against the object floor, and the floor against (b): what the object's work adds to its hop,
// and what the hop costs beside one D1 query.
const floorRatios = TASK_ROWS.filter((id) => byId[id]?.runs && byId[OBJECT_FLOOR]?.runs).map((id) => ({
  id,
  label: byId[id].label,
  results: Object.fromEntries(
    CONNECTIONS.map((c) => [
      c,
      {
        ratio: byId[id].runs[c].ratioToObject.rps,
        interval90: interval90(byId[id].runs[c].sliceRps, byId[OBJECT_FLOOR].runs[c].sliceRps),
      },
    ]),
  ),
}));
const comparison = earlier && {
  file: compareFile,
  startedAt: earlier.startedAt,
  ...compareDesigns({ rows: savedRows() }, earlier, CONNECTIONS),
};

const targetDefs = [
  { name: "GET /api/v1/tasks (100) throughput ≥ 0.9 × (b)", row: "list100", ref: "b", min: 0.9 },
  { name: "POST /api/v1/tasks throughput ≥ 0.8 × (b)", row: "create", ref: "b", min: 0.8 },
  { name: "PATCH /api/v1/tasks/{id} throughput ≥ 0.8 × (b)", row: "update", ref: "b", min: 0.8 },
  { name: "MCP list_tasks throughput ≥ 0.7 × REST GET /api/v1/tasks (100)", row: "mcpList", ref: "list100", min: 0.7 },
  {
    name: "Search in 10,000 tasks throughput ≥ 0.5 × REST GET /api/v1/tasks (100)",
    row: "search10k",
    ref: "list100",
    min: 0.5,
  },
  {
    name: "Search, read each time, ≥ 0.5 × REST GET /api/v1/tasks (100)",
    row: "search10kRead",
    ref: "list100",
    min: 0.5,
  },
  { name: "Calendar pack throughput ≥ 0.9 × (a)", row: "pack", ref: "a", min: 0.9 },
  { name: "Calendar 304 throughput ≥ 1.0 × (a) (costs no more)", row: "pack304", ref: "a", min: 1.0 },
];
const targets = targetDefs.map((t) => {
  const perConnections = {};
  for (const c of CONNECTIONS) {
    const value = ratio(byId[t.row]?.runs?.[c]?.rps ?? null, byId[t.ref]?.runs?.[c]?.rps);
    const interval = value === null ? null : interval90(byId[t.row].runs[c].sliceRps, byId[t.ref].runs[c].sliceRps);
    // Clear when the whole interval is on one side of the threshold; otherwise within this run's noise.
    const clear = isClear(interval, t.min);
    perConnections[c] = { ratio: value, pass: value === null ? null : value >= t.min, interval90: interval, clear };
  }
  return { ...t, results: perConnections };
});
const zeroNon2xx = { name: "0 unexpected statuses and 0 errors in every load run", pass: problems.length === 0 };

const pad = (s, n, right = false) => (right ? String(s ?? "–").padStart(n) : String(s ?? "–").padEnd(n));
const lines = [];
const header = `${pad("request", 58)} ${pad("conn", 4, true)} ${pad("req/s", 8, true)} ${pad("p50 ms", 8, true)} ${pad("p99 ms", 8, true)} ${pad("×b req/s", 9, true)} ${pad("×b p50", 7, true)} ${pad("×b p99", 7, true)} ${pad("×o req/s", 9, true)} ${pad("cpu ms", 7, true)} ${pad("thr ms", 7, true)} ${pad("bad", 4, true)}`;
lines.push(header, "-".repeat(header.length));
for (const row of rows) {
  if (row.status !== "ok") {
    lines.push(`${pad(row.label, 58)} ${row.status}: ${row.note}`);
    continue;
  }
  for (const c of CONNECTIONS) {
    const r = row.runs[c];
    lines.push(
      `${pad(c === CONNECTIONS[0] ? row.label : "", 58)} ${pad(c, 4, true)} ${pad(r.rps, 8, true)} ${pad(r.p50, 8, true)} ${pad(r.p99, 8, true)} ${pad(r.ratioToB?.rps, 9, true)} ${pad(r.ratioToB?.p50, 7, true)} ${pad(r.ratioToB?.p99, 7, true)} ${pad(r.ratioToObject?.rps, 9, true)} ${pad(r.serverCpuMsPerRequest, 7, true)} ${pad(r.busiestThreadMsPerRequest, 7, true)} ${pad(r.unexpected + r.errors, 4, true)}`,
    );
  }
}
lines.push(
  "",
  "Targets (ratios of throughput in this run, [90% interval over its rounds]; informational, never the exit code):",
);
for (const t of targets) {
  const parts = CONNECTIONS.map((c) => {
    const r = t.results[c];
    const verdict = r.pass === null ? "n/a" : `${r.pass ? "ok" : "MISS"}${r.clear === false ? "?" : ""}`;
    return `@${c}: ${pad(r.ratio, 4)} ${pad(verdict, 5)} ${formatInterval(r.interval90)}`.padEnd(30);
  });
  lines.push(`  ${pad(t.name, 72)} ${parts.join(" ")}`.trimEnd());
}
lines.push(`  ${pad(zeroNon2xx.name, 72)} ${zeroNon2xx.pass ? "ok" : "FAIL"}`);
const unclear = targets.flatMap((t) => CONNECTIONS.filter((c) => t.results[c].clear === false));
if (unclear.length)
  lines.push(
    `  ?: ${unclear.length} verdict(s) within this run's noise (the interval spans the threshold): a rerun may flip them.`,
  );
if (floorRatios.length) {
  lines.push("", "Task rows ÷ the object floor (o), throughput [90% interval over this run's rounds]:");
  for (const f of floorRatios) {
    const parts = CONNECTIONS.map((c) =>
      `@${c}: ${pad(f.results[c].ratio, 4)} ${formatInterval(f.results[c].interval90)}`.padEnd(26),
    );
    lines.push(`  ${pad(f.label, 72)} ${parts.join(" ")}`.trimEnd());
  }
}
if (comparison) {
  lines.push(
    "",
    `Against ${comparison.file} (run ${comparison.startedAt}): each task row's ratio to its floor, this run's (${comparison.floors.current}) ÷ that run's (${comparison.floors.previous}), ≥ ${KEEP_SHARE} [90% interval, both runs' rounds]; ? within the runs' noise, counts as met:`,
  );
  for (const row of comparison.rows) {
    const parts = CONNECTIONS.map((c) => {
      const r = row.results[c];
      if (!r) return "n/a".padEnd(34);
      const verdict = `${r.pass ? "ok" : "MISS"}${r.clear === false ? "?" : ""}`;
      return `@${c}: ${pad(r.share, 4)} ${pad(verdict, 5)} ${formatInterval(r.interval90)}`.padEnd(34);
    });
    lines.push(`  ${pad(row.label, 72)} ${parts.join(" ")}`.trimEnd());
  }
  const unmet = comparison.rows.flatMap((row) => CONNECTIONS.filter((c) => row.results[c]?.met === false));
  lines.push(`  ${unmet.length ? `${unmet.length} check(s) not met beyond the runs' noise` : "every check met"}`);
}
const payloadRatios = CONNECTIONS.map(
  (c) => `@${c}: ${ratio(byId.list100?.runs?.[c]?.rps ?? null, byId.bPayload?.runs?.[c]?.rps) ?? "–"}`,
);
lines.push(
  "",
  `Diagnostic: GET /api/v1/tasks (100) ÷ (b) padded to the same bytes, throughput   ${payloadRatios.join("   ")}`,
);
for (const write of ["create", "update"].filter((id) => byId[id]?.runs)) {
  const floor = CONNECTIONS.map(
    (c) => `@${c}: ${ratio(byId[write]?.runs?.[c]?.rps ?? null, byId.bWrite?.runs?.[c]?.rps) ?? "–"}`,
  );
  lines.push(`Diagnostic: ${pad(`${byId[write]?.label} ÷ (b) as a write, throughput`, 73)} ${floor.join("   ")}`);
}

const machine = {
  cores: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: round(totalmem() / 2 ** 30, 1),
  os: `${process.platform} ${release()} ${process.arch}`,
  node: process.version,
  wrangler: versionOf("wrangler"),
  autocannon: versionOf("autocannon"),
  loadAverage: { start: startLoad, end: loadavg().map((x) => round(x)) },
  d1: { directory: d1Parent, filesystem: filesystemOf(d1Parent) },
};
console.log(
  `\nMachine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, wrangler ${machine.wrangler}, autocannon ${machine.autocannon}`,
);
console.log(`Local D1 in ${machine.d1.directory} (${machine.d1.filesystem})`);
console.log(
  `Load average at start ${machine.loadAverage.start.join(" ")}, at end ${machine.loadAverage.end.join(" ")} (other processes share these cores)`,
);
console.log(
  `Each row: ${WARMUP} s warm-up at 10 connections, then ${DURATION} × 1 s at each of ${CONNECTIONS.join(" and ")} connections, rows taking turns. Latencies in ms.`,
);
for (const c of CONNECTIONS) {
  const slices = byId[BASELINE].runs?.[c]?.sliceRps;
  if (slices)
    console.log(
      `Noise: baseline (b) per-second throughput @${c} ranged ${Math.min(...slices)}–${Math.max(...slices)} req/s.`,
    );
}
const busy = CONNECTIONS.map(
  (c) => `@${c} ${Math.round((byId[BASELINE].runs?.[c]?.busiestThreadUtilisation ?? Number.NaN) * 100)}%`,
);
console.log(
  `cpu ms: server CPU per response, all processes; thr ms: its busiest thread's (baseline (b) kept it busy ${busy.join(", ")}).`,
);
console.log("");
console.log(lines.join("\n"));

mkdirSync(join(root, "bench"), { recursive: true });
const results = {
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  settings: {
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    connections: CONNECTIONS,
    baseline: BASELINE,
    objectFloor: OBJECT_FLOOR,
    taskRows: TASK_ROWS,
    server: "wrangler dev --log-level error --var RATE_LIMITS:off --var BENCH_ROUTES:on",
  },
  machine,
  server: { readyMs: started.readyMs },
  seed: { tasks: { list100: 100, list1000: 1000 }, ms: seedMs, search: searchSeeded },
  rows: savedRows(),
  targets: [...targets, zeroNon2xx],
  objectFloor: floorRatios,
  ...(comparison && { comparison }),
  errors: problems,
};
writeFileSync(join(root, "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log("\nWrote bench/results.json");

if (problems.length) {
  console.error(`\n${problems.length} error(s):\n  ${problems.join("\n  ")}`);
  process.exitCode = 1;
}
cleanup();
