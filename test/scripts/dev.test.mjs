// `npm run dev`'s migration step (scripts/migrate-local.mjs), run as predev runs it: one line, never a prompt.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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

// `npm run dev` writes its local configuration once (scripts/ensure-dev-vars.mjs), a VAPID pair with it: a pair that
// really is one (the private key signs what the public key verifies), kept on the next run.
it("gives .dev.vars a working VAPID pair once, and keeps it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "dev-vars-test-"));
  const ensure = () =>
    spawnSync(process.execPath, [join(root, "scripts/ensure-dev-vars.mjs")], { cwd: dir, encoding: "utf8" });
  try {
    assert.equal(ensure().status, 0);
    const vars = Object.fromEntries(
      readFileSync(join(dir, ".dev.vars"), "utf8")
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    const raw = Buffer.from(vars.VAPID_PUBLIC_KEY, "base64url");
    assert.equal(raw.length, 65);
    assert.equal(raw[0], 4);
    assert.equal(Buffer.from(vars.VAPID_PRIVATE_KEY, "base64url").length, 32);
    assert.match(vars.VAPID_SUBJECT, /^mailto:/);
    const jwk = {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33).toString("base64url"),
    };
    const algorithm = { name: "ECDSA", namedCurve: "P-256" };
    const signer = await crypto.subtle.importKey("jwk", { ...jwk, d: vars.VAPID_PRIVATE_KEY }, algorithm, false, [
      "sign",
    ]);
    const verifier = await crypto.subtle.importKey("raw", raw, algorithm, false, ["verify"]);
    const data = new TextEncoder().encode("vapid");
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signer, data);
    assert.ok(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, verifier, signature, data));
    const before = readFileSync(join(dir, ".dev.vars"), "utf8");
    assert.equal(ensure().status, 0);
    assert.equal(readFileSync(join(dir, ".dev.vars"), "utf8"), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
