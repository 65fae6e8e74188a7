// `npm run dev` (predev): applies migrations/ to the local D1 database and says so in one line.
// wrangler itself prints the migration table once per migration, and in a terminal it stops at "Your database
// may not be available … continue? (Y/n)". Here its output is captured, so it is not a terminal and never asks,
// and the whole output is shown only when it fails. Arguments reach wrangler (e.g. --persist-to <dir>).
// First, a local store an earlier release's config named differently is carried over (carry-local-state.mjs).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { carryLocalState } from "./carry-local-state.mjs";

const root = join(import.meta.dirname, "..");
const persistAt = process.argv.indexOf("--persist-to");
const persistRoot = persistAt > 0 ? resolve(process.argv[persistAt + 1]) : join(root, ".wrangler", "state");
for (const line of await carryLocalState(persistRoot, root)) console.log(line);
const wranglerBin = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const args = ["d1", "migrations", "apply", "DB", "--local", ...process.argv.slice(2)];
const run = spawnSync(process.execPath, [wranglerBin, ...args], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  encoding: "utf8",
});
const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
if (run.status !== 0) {
  process.stderr.write(output);
  console.error(`Local D1: \`wrangler ${args.join(" ")}\` failed (above).`);
  process.exit(run.status ?? 1);
}
const files = readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql"));
const applied = [...new Set(output.match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [])];
console.log(
  applied.length === 0
    ? `Local D1: up to date (${files.length} migrations).`
    : `Local D1: applied ${applied.length} of ${files.length} migrations (${applied[0]} … ${applied.at(-1)}).`,
);
