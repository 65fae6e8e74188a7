// `npm run demo-key` finds the dev server from its argument, BASE_URL or the default (issue 35 item 12).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEFAULT_DEV_URL, demoKeyTarget, unreachableMessage } from "../../scripts/demo-key-target.mjs";

const root = join(import.meta.dirname, "..", "..");

describe("demo-key target", () => {
  it("takes a port or a URL as its argument, before BASE_URL", () => {
    const env = { BASE_URL: "http://localhost:9999" };
    assert.deepEqual(demoKeyTarget(["8801"], env), { base: "http://localhost:8801", how: "argument" });
    assert.deepEqual(demoKeyTarget(["http://localhost:8801/"], env), {
      base: "http://localhost:8801",
      how: "argument",
    });
    assert.deepEqual(demoKeyTarget(["https://todo.acme.dev"], {}), { base: "https://todo.acme.dev", how: "argument" });
  });

  it("falls back to BASE_URL, then to wrangler's default port", () => {
    assert.deepEqual(demoKeyTarget([], { BASE_URL: "http://127.0.0.1:8802/" }), {
      base: "http://127.0.0.1:8802",
      how: "BASE_URL",
    });
    assert.deepEqual(demoKeyTarget([], {}), { base: DEFAULT_DEV_URL, how: "default" });
    assert.deepEqual(demoKeyTarget([], { BASE_URL: "" }), { base: "http://localhost:8787", how: "default" });
  });

  it("refuses an argument that is neither a port nor an http(s) URL, showing the usage", () => {
    for (const arg of ["0", "70000", "localhost:8801", "ftp://localhost", "--port"]) {
      assert.match(demoKeyTarget([arg], {}).error ?? "", /Usage: npm run demo-key -- 8801 /, arg);
    }
  });

  it("says how to pass the port only when it guessed the default", () => {
    const guessed = unreachableMessage(demoKeyTarget([], {}), "ECONNREFUSED");
    assert.match(guessed, /^Cannot reach http:\/\/localhost:8787: ECONNREFUSED\. /);
    assert.match(
      guessed,
      /npm run demo-key -- 8801 .* npm run demo-key -- http:\/\/localhost:8801 \(or set BASE_URL\)/,
    );
    const given = unreachableMessage(demoKeyTarget(["8801"], {}), "ECONNREFUSED");
    assert.equal(given, "Cannot reach http://localhost:8801: ECONNREFUSED. Is `npm run dev` running there?");
  });

  it("npm run demo-key -- <port> calls that port", async () => {
    // A port that was free a moment ago, so nothing answers: the error names the port given, not 8787.
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address();
    await new Promise((resolve) => server.close(resolve));
    const run = spawnSync(process.execPath, ["scripts/demo-key.mjs", String(port)], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, ADMIN_TOKEN: "dev-test", BASE_URL: "" },
    });
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      new RegExp(`^Cannot reach http://localhost:${port}: \\w+\\. Is \`npm run dev\` running there\\?\\n$`),
    );
  });
});
