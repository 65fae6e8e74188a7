// Size gate for the Worker bundle, run in `npm run check` right after `npm run build`
// (`wrangler deploy --dry-run --minify --outdir dist`). It measures what wrangler reports as
// "Total Upload … gzip": the modules of the build concatenated, then gzipped with node:zlib defaults.
// Over BUDGET_KIB it warns; over LIMIT_KIB it fails, so a regression is caught before review.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KIB = 250;
const LIMIT_KIB = 300;
const dir = resolve(import.meta.dirname, "..", process.argv[2] ?? "dist");

// Not uploaded: source maps, wrangler's README, and the OpenAPI dump of `npm run lint:openapi`.
const notAModule = (name) => name.endsWith(".map") || name === "README.md" || name === "openapi.json";

let names;
try {
  names = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile() && !notAModule(name));
} catch {
  names = [];
}
if (!names.includes("index.js")) {
  console.error(`No bundle in ${dir}: run \`npm run build\` first.`);
  process.exit(1);
}
// wrangler does not empty dist/: a module is part of this build only if the entry imports it by name.
const entry = readFileSync(join(dir, "index.js"), "latin1");
const stale = names.filter((name) => name !== "index.js" && !entry.includes(`"./${name}"`));
if (stale.length) console.log(`Ignoring files no longer imported by index.js: ${stale.join(", ")}`);
// wrangler's figure gzips the imported modules, in import order, then the entry; the same order gives the same bytes.
const imported = names.filter((name) => name !== "index.js" && !stale.includes(name));
imported.sort((x, y) => entry.indexOf(`"./${x}"`) - entry.indexOf(`"./${y}"`));
names = [...imported, "index.js"];

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;
const files = names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
for (const { name, bytes } of files) console.log(`  ${name.padEnd(60)} ${kib(bytes.length).padStart(12)}`);
const all = Buffer.concat(files.map((f) => f.bytes));
const gzip = gzipSync(all).length;
console.log(`Bundle: ${kib(all.length)} raw, ${kib(gzip)} gzip (budget ${BUDGET_KIB} KiB, limit ${LIMIT_KIB} KiB)`);

if (gzip > LIMIT_KIB * 1024) {
  console.error(`Bundle gzip size ${kib(gzip)} is over the ${LIMIT_KIB} KiB limit.`);
  process.exit(1);
}
if (gzip > BUDGET_KIB * 1024)
  console.warn(`Warning: bundle gzip size ${kib(gzip)} is over the ${BUDGET_KIB} KiB budget.`);
