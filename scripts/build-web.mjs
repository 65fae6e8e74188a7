// Bundles the browser pages with esbuild for Workers static assets: the account page (web/main.ts →
// static/app.js), the tasks page (web/tasks/main.ts → static/tasks.js, Preact with htm), and the pages mailed links
// open (web/links.ts → static/links.js: /verify, /reset), and the service worker that shows reminders pushed to
// this device (web/push-sw.ts → static/push-sw.js, a classic script: not every browser runs module workers). The tasks page's JavaScript must stay within
// TASKS_LIMIT_KIB gzip: over it, the build fails. Its quick-add parser (chrono-node, about 13 KiB gzip) is
// split out (static/tasks-parts/, content-hashed names) and loaded when the person first focuses the add
// field, within LAZY_LIMIT_KIB.
// Plain Node ESM so it runs under Node 20 and 22; the outputs are gitignored.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const TASKS_LIMIT_KIB = 40;
const LAZY_LIMIT_KIB = 20;
const common = {
  absWorkingDir: root,
  outdir: "static",
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
};

rmSync(new URL("../static/tasks-parts", import.meta.url), { recursive: true, force: true });
await build({ ...common, entryPoints: { app: "web/main.ts", links: "web/links.ts" } });
await build({ ...common, format: "iife", entryPoints: { "push-sw": "web/push-sw.ts" } });
await build({
  ...common,
  entryPoints: { tasks: "web/tasks/main.ts" },
  splitting: true,
  chunkNames: "tasks-parts/[name]-[hash]",
});

const gzip = (path) => {
  const bytes = readFileSync(new URL(`../static/${path}`, import.meta.url));
  return { raw: bytes.length / 1024, gzip: gzipSync(bytes).length / 1024 };
};
// What the page loads at once: tasks.js and the shared chunks it imports; the rest loads on demand.
const parts = readdirSync(new URL("../static/tasks-parts", import.meta.url)).map((f) => `tasks-parts/${f}`);
const initial = ["tasks.js", ...parts.filter((p) => p.startsWith("tasks-parts/chunk-"))];
const lazy = parts.filter((p) => !initial.includes(p));
const sum = (paths) =>
  paths.map(gzip).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
for (const [name, paths, limit] of [
  ["static/tasks.js with its shared chunks", initial, TASKS_LIMIT_KIB],
  ...lazy.map((p) => [`static/${p} (loaded on demand)`, [p], LAZY_LIMIT_KIB]),
]) {
  const { raw, gzip: zipped } = sum(paths);
  if (zipped > limit) {
    console.error(`${name} is ${zipped.toFixed(1)} KiB gzip, over the ${limit} KiB limit.`);
    process.exit(1);
  }
  if (process.argv.includes("--sizes")) console.log(`${name}: ${raw.toFixed(1)} KiB, ${zipped.toFixed(1)} KiB gzip`);
}
