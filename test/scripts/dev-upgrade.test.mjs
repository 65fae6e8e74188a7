// An upgrade of a local dev state, from the release before the account objects (e0c5c75) with that release's own
// wrangler.toml: its placeholder database and KV ids kept local D1 and KV under names this release's config (no ids)
// does not open. `npm run dev`'s migration step (scripts/migrate-local.mjs) must carry both over.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { objectFileName } from "../../scripts/carry-local-state.mjs";

const root = join(import.meta.dirname, "..", "..");
const previousRelease = "e0c5c75";
const wranglerBin = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const work = mkdtempSync(join(tmpdir(), "dev-upgrade-"));
const state = join(work, "state");
after(() => rmSync(work, { recursive: true, force: true }));

const wrangler = (cwd, ...args) => {
  const run = spawnSync(process.execPath, [wranglerBin, ...args, "--local", "--persist-to", state], {
    cwd,
    env,
    encoding: "utf8",
  });
  assert.equal(run.status, 0, `wrangler ${args.join(" ")}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
};

/** The previous release's config and D1 migrations, as its checkout had them. */
function previousCheckout() {
  const dir = join(work, "previous");
  mkdirSync(join(dir, "migrations"), { recursive: true });
  const show = (path) => execFileSync("git", ["show", `${previousRelease}:${path}`], { cwd: root, encoding: "utf8" });
  writeFileSync(join(dir, "wrangler.toml"), show("wrangler.toml"));
  const files = execFileSync("git", ["ls-tree", "--name-only", previousRelease, "migrations/"], {
    cwd: root,
    encoding: "utf8",
  });
  for (const file of files.split("\n").filter((f) => f.endsWith(".sql"))) writeFileSync(join(dir, file), show(file));
  return dir;
}

it("knows the file names workerd gives the local stores", () => {
  // The name of this release's local D1 database (id "DB"), as `wrangler d1 execute --local` creates it.
  assert.equal(
    objectFileName("miniflare-D1DatabaseObject", "DB"),
    "e7352547963de7050bd7d94658afc4fe78b61811b7815da12d90be8e863abf4d.sqlite",
  );
});

it("carries the previous release's local D1 accounts and OAuth KV entries into this release's dev state", () => {
  const previous = previousCheckout();
  wrangler(previous, "d1", "migrations", "apply", "DB");
  wrangler(
    previous,
    "d1",
    "execute",
    "DB",
    "--command",
    "INSERT INTO accounts (id, email, password_hash, created_at) VALUES ('acc-old', 'old@example.com', 'x', '2026-11-25T00:00:00Z')",
  );
  wrangler(previous, "kv", "key", "put", "--binding", "OAUTH_KV", "grant:old", "kept");

  const migrate = spawnSync(process.execPath, ["scripts/migrate-local.mjs", "--persist-to", state], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  assert.equal(migrate.status, 0, migrate.stderr);
  assert.match(migrate.stdout, /^Local D1: carried over the store an earlier release kept under id 0{8}-/m);
  assert.match(migrate.stdout, /^Local OAuth KV: carried over/m);

  const rows = wrangler(root, "d1", "execute", "DB", "--json", "--command", "SELECT email FROM accounts");
  assert.deepEqual(
    JSON.parse(rows)[0].results.map((r) => r.email),
    ["old@example.com"],
  );
  assert.equal(wrangler(root, "kv", "key", "get", "--binding", "OAUTH_KV", "grant:old").trim(), "kept");

  // Once carried, a second run has nothing to say about it and keeps the data.
  const again = spawnSync(process.execPath, ["scripts/migrate-local.mjs", "--persist-to", state], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  assert.doesNotMatch(again.stdout, /carried|earlier release/);
});
