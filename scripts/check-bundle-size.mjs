// Size gate for the Worker, run in `npm run check` right after `npm run build`
// (`wrangler deploy --dry-run --minify --outdir dist`). It reads every file of dist/ and sorts them:
// - the main module: index.js and the modules it imports statically (the object's SQL migrations, as text).
//   This is what every isolate loads and parses at start-up, so it holds the budget: over MAIN_LIMIT_KIB fails.
// - lazily loaded modules (src/lazy/load.ts): files that index.js reaches only by `import("./<file>")`. The first
//   request that needs one loads it, so each is reported apart, with its own limit (what that request pays).
// - the rest: not uploaded (source maps, wrangler's README, `npm run lint:openapi`'s dump), or stale (wrangler does
//   not empty dist/: a file that index.js no longer names is not part of this build).
// Sizes are gzip with node:zlib defaults. The total is the same figure as wrangler's "Total Upload … gzip" (every
// module concatenated, imports first, then the entry), the size Cloudflare's upload limit applies to.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

/** The main module, gzip: issue 33 ("Performance debts") set 250 KiB. */
const MAIN_LIMIT_KIB = 250;
/** Each lazily loaded module, gzip: the extra the first request of a route group loads (stripe is ~32 KiB). */
const LAZY_LIMIT_KIB = 100;

const dir = resolve(import.meta.dirname, "..", process.argv[2] ?? "dist");
const notUploaded = (name) => name.endsWith(".map") || name === "README.md" || name === "openapi.json";

let names;
try {
  names = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile());
} catch {
  names = [];
}
if (!names.includes("index.js")) {
  console.error(`No bundle in ${dir}: run \`npm run build\` first.`);
  process.exit(1);
}
const entry = readFileSync(join(dir, "index.js"), "latin1");
const modules = names.filter((name) => name !== "index.js" && !notUploaded(name));
const lazy = modules.filter((name) => entry.includes(`import("./${name}")`));
const statics = modules.filter((name) => !lazy.includes(name) && entry.includes(`"./${name}"`));
const stale = modules.filter((name) => !lazy.includes(name) && !statics.includes(name));
if (stale.length) console.log(`Ignoring files no longer imported by index.js: ${stale.join(", ")}`);
// wrangler's order, so the total is its bytes: the modules it found under base_dir (by name), the modules it
// collected while bundling (in the order the entry names them), then the entry.
lazy.sort();
statics.sort((x, y) => entry.indexOf(`"./${x}"`) - entry.indexOf(`"./${y}"`));
const main = [...statics, "index.js"];

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;
const read = (name) => readFileSync(join(dir, name));
const measure = (files) => {
  const all = Buffer.concat(files.map(read));
  return { raw: all.length, gzip: gzipSync(all).length };
};
const line = (label, { raw, gzip }, limit) =>
  console.log(`${label.padEnd(40)} ${kib(raw).padStart(12)} raw ${kib(gzip).padStart(11)} gzip  (limit ${limit} KiB)`);

const failures = [];
const mainSize = measure(main);
console.log(`Main module (start-up): index.js and ${statics.length} statically imported modules`);
line("  main", mainSize, MAIN_LIMIT_KIB);
if (mainSize.gzip > MAIN_LIMIT_KIB * 1024) failures.push(`the main module (${kib(mainSize.gzip)})`);

console.log(`Lazily loaded modules (first use): ${lazy.length}`);
for (const name of lazy) {
  const size = measure([name]);
  line(`  ${name}`, size, LAZY_LIMIT_KIB);
  if (size.gzip > LAZY_LIMIT_KIB * 1024) failures.push(`${name} (${kib(size.gzip)})`);
}

const total = measure([...lazy, ...main]);
console.log(`Total upload: ${kib(total.raw)} raw, ${kib(total.gzip)} gzip (wrangler's "Total Upload")`);

if (failures.length) {
  console.error(`Over the gzip limit: ${failures.join(", ")}.`);
  process.exit(1);
}
