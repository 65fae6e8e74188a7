// scripts/check-doc-paths.mjs: docs that name a file must name one that exists.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { checkDocPaths, expandBraces, repositoryIndex, stalePaths } from "../../scripts/check-doc-paths.mjs";

const root = join(import.meta.dirname, "..", "..");
const index = repositoryIndex([
  "src/control/key-directory.ts",
  "src/domain/tasks/list.ts",
  "src/domain/tasks/write.ts",
  "src/http/account-task-routes.ts",
  "src/http/account-list-routes.ts",
  "migrations/0008_lists_and_search.sql",
  "docs/events.md",
  "docs/security.md",
  "README.md",
]);
const stale = (text, doc = "docs/security.md") => stalePaths(doc, text, index).map(({ line, path }) => [line, path]);

describe("check-doc-paths", () => {
  it("flags a repository path that names nothing, with its line", () => {
    assert.deepEqual(stale("One.\nThe chunks (`src/domain/tasks/listing-chunks.ts`) and src/db/compiled.ts.\n"), [
      [2, "src/domain/tasks/listing-chunks.ts"],
      [2, "src/db/compiled.ts"],
    ]);
  });

  it("accepts files, folders, globs, braces, a trailing … and prose punctuation", () => {
    const text = [
      "See src/control/key-directory.ts, src/domain/tasks/ and `src/domain/tasks/*.ts`.",
      "Both `src/http/account-{task,list}-routes.ts`; anything in `src/domain/…`; migrations/0008_lists_and_search.sql:20.",
    ].join("\n");
    assert.deepEqual(stale(text), []);
  });

  it("flags a glob or a brace that matches nothing", () => {
    assert.deepEqual(stale("`src/domain/tasks/*.mjs` and `src/http/account-{task,note}-routes.ts`"), [
      [1, "src/domain/tasks/*.mjs"],
      [1, "src/http/account-{task,note}-routes.ts"],
    ]);
  });

  it("checks a source file named without its root, as a code span or in a file map", () => {
    const text = [
      "Routing is `control/key-directory.ts`; chunks were `listing-chunks.ts`.",
      "```",
      "src/control/key-directory.ts   the directory (control/key-directory.ts), then idempotency.ts",
      "```",
    ].join("\n");
    assert.deepEqual(stale(text), [
      [1, "listing-chunks.ts"],
      [3, "idempotency.ts"],
    ]);
  });

  it("leaves package names in prose, commands and shell blocks alone", () => {
    const text = [
      "It parses with ical.js, and `npx wrangler d1 export todo --output=todo.sql` keeps a copy.",
      "```sh",
      "node build.mjs",
      "```",
    ].join("\n");
    assert.deepEqual(stale(text), []);
  });

  it("does not read a URL's path as a repository path", () => {
    assert.deepEqual(stale("https://github.com/cloudflare/workers-oauth-provider/blob/main/src/oauth-provider.ts"), []);
  });

  it("resolves relative Markdown links from the document's folder", () => {
    const text =
      "[events](events.md), [readme](../README.md#top), [gone](lifecycle.md), [out](../../x.md), [web](https://x.dev/a.md)";
    assert.deepEqual(stale(text), [
      [1, "lifecycle.md"],
      [1, "../../x.md"],
    ]);
    assert.deepEqual(stale("[events](docs/events.md)", "README.md"), []);
  });

  it("expands nested choices in order", () => {
    assert.deepEqual(expandBraces("a/{b,c}/{d,e}.ts"), ["a/b/d.ts", "a/b/e.ts", "a/c/d.ts", "a/c/e.ts"]);
  });

  it("finds every file the repository's own docs name", () => {
    assert.deepEqual(checkDocPaths(root), []);
  });

  it("fails with each stale reference on a line of its own", () => {
    const dir = mkdtempSync(join(tmpdir(), "doc-paths-"));
    try {
      const write = (path, text) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write("src/app.ts", "");
      write("docs/api.md", "The app is `src/app.ts`.\n\nRoutes in `src/routes.ts`.\n");
      write("README.md", "See [the API](docs/api.md).\n");
      const run = spawnSync(process.execPath, [join(root, "scripts/check-doc-paths.mjs"), dir], { encoding: "utf8" });
      assert.equal(run.status, 1);
      assert.equal(run.stderr, "docs/api.md:3: src/routes.ts does not exist\n");
      write("src/routes.ts", "");
      const again = spawnSync(process.execPath, [join(root, "scripts/check-doc-paths.mjs"), dir], { encoding: "utf8" });
      assert.equal(again.status, 0, again.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
