// `npm run dev`'s migration step (scripts/migrate-local.mjs), run as predev runs it: one line, never a prompt.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";

const root = join(import.meta.dirname, "..", "..");
const migrate = (persistTo) =>
  spawnSync(process.execPath, ["scripts/migrate-local.mjs", "--persist-to", persistTo], {
    cwd: root,
    encoding: "utf8",
  });

it("applies the local migrations with one line of output, then reports them up to date", () => {
  const dir = mkdtempSync(join(tmpdir(), "migrate-test-"));
  try {
    const count = readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql")).length;
    const first = migrate(dir);
    assert.equal(first.status, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(
        `^Local D1: applied ${count} of ${count} migrations \\(0000_init\\.sql … \\d{4}_[\\w-]+\\.sql\\)\\.\\n$`,
      ),
    );
    assert.equal(first.stderr, "");
    const again = migrate(dir);
    assert.equal(again.stdout, `Local D1: up to date (${count} migrations).\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
