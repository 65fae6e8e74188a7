// Bundles the browser pages with esbuild for Workers static assets: the account page (web/main.ts →
// static/app.js), the tasks page (web/tasks/main.ts → static/tasks.js, Preact with htm), and the pages mailed links
// open (web/links.ts → static/links.js: /verify, /reset). The tasks
// page's JavaScript must stay within TASKS_LIMIT_KIB gzip: over it, the build fails.
// Plain Node ESM so it runs under Node 20 and 22; the outputs are gitignored.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const TASKS_LIMIT_KIB = 40;

await build({
  absWorkingDir: root,
  entryPoints: { app: "web/main.ts", tasks: "web/tasks/main.ts", links: "web/links.ts" },
  outdir: "static",
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

const bytes = readFileSync(new URL("../static/tasks.js", import.meta.url));
const gzip = gzipSync(bytes).length / 1024;
if (gzip > TASKS_LIMIT_KIB) {
  console.error(`static/tasks.js is ${gzip.toFixed(1)} KiB gzip, over the ${TASKS_LIMIT_KIB} KiB limit.`);
  process.exit(1);
}
if (process.argv.includes("--sizes"))
  console.log(`static/tasks.js: ${(bytes.length / 1024).toFixed(1)} KiB, ${gzip.toFixed(1)} KiB gzip`);
