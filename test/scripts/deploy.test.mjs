// `npm run deploy` refuses placeholder configuration before wrangler runs (scripts/deploy.mjs, deploy-checks.mjs).
// Node's test runner, not the Workers pool: these are the repository's scripts, run as a person runs them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { adminTokenProblems, EXAMPLE_CONTACT_EMAIL, varProblems } from "../../scripts/deploy-checks.mjs";

const root = join(import.meta.dirname, "..", "..");
const OK_VARS = { CONTACT_EMAIL: "help@tasks.acme.dev", PUBLIC_ORIGIN: "https://tasks.acme.dev" };
const EXAMPLE_EMAIL_PROBLEM =
  'CONTACT_EMAIL is "support@todo.example.com", an example address, and GET /api/v1/ and the OpenAPI document ' +
  'show it to every user. Set your own in wrangler.toml [vars]: CONTACT_EMAIL = "support@your-domain.com"';
const EMPTY_ORIGIN_PROBLEM =
  "PUBLIC_ORIGIN is empty: links, problem types and OAuth would follow each request's Host. Set it in " +
  'wrangler.toml [vars] to the origin users reach: PUBLIC_ORIGIN = "https://todo.your-domain.com" (a custom ' +
  'domain, see `routes`) or "https://todo-calendar.<your-subdomain>.workers.dev"';

describe("deploy checks", () => {
  it("refuses the example CONTACT_EMAIL and an empty PUBLIC_ORIGIN, saying what to set", () => {
    assert.deepEqual(varProblems({ CONTACT_EMAIL: EXAMPLE_CONTACT_EMAIL, PUBLIC_ORIGIN: "" }), [
      EXAMPLE_EMAIL_PROBLEM,
      EMPTY_ORIGIN_PROBLEM,
    ]);
  });

  it("accepts a real address and an https origin", () => {
    assert.deepEqual(varProblems(OK_VARS), []);
    assert.deepEqual(varProblems({ ...OK_VARS, PUBLIC_ORIGIN: "https://todo-calendar.acme.workers.dev/" }), []);
  });

  it("refuses other example addresses, non-addresses and origins that are not https origins", () => {
    for (const CONTACT_EMAIL of ["me@example.org", "ops@mail.example.com", "", "support"]) {
      assert.match(varProblems({ ...OK_VARS, CONTACT_EMAIL })[0] ?? "", /^CONTACT_EMAIL /, CONTACT_EMAIL);
    }
    for (const PUBLIC_ORIGIN of ["http://tasks.acme.dev", "https://tasks.acme.dev/app", "tasks.acme.dev"]) {
      assert.match(varProblems({ ...OK_VARS, PUBLIC_ORIGIN })[0] ?? "", /is not an https origin/, PUBLIC_ORIGIN);
    }
    assert.match(varProblems({ ...OK_VARS, PUBLIC_ORIGIN: "https://todo.example.com" })[0] ?? "", /example host/);
  });

  it("refuses a missing or short ADMIN_TOKEN, and accepts one deployed or given", () => {
    assert.match(adminTokenProblems({ fromEnv: undefined, deployed: false })[0] ?? "", /^ADMIN_TOKEN is not set: /);
    assert.match(adminTokenProblems({ fromEnv: "short", deployed: true })[0] ?? "", /has 5 characters/);
    assert.deepEqual(adminTokenProblems({ fromEnv: undefined, deployed: true }), []);
    assert.deepEqual(adminTokenProblems({ fromEnv: "x".repeat(44), deployed: false }), []);
  });

  it("npm run deploy stops on the shipped placeholders before wrangler runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "deploy-test-"));
    try {
      // The repository's wrangler.toml as shipped, where a deployer's own values would not disturb the test.
      const shipped = readFileSync(join(root, "wrangler.toml"), "utf8")
        .replace(/^CONTACT_EMAIL = .*$/m, `CONTACT_EMAIL = "${EXAMPLE_CONTACT_EMAIL}"`)
        .replace(/^PUBLIC_ORIGIN = .*$/m, 'PUBLIC_ORIGIN = ""');
      writeFileSync(join(dir, "wrangler.toml"), shipped);
      const run = spawnSync(process.execPath, ["scripts/deploy.mjs", "--config", join(dir, "wrangler.toml")], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, ADMIN_TOKEN: "", CLOUDFLARE_API_TOKEN: "" },
      });
      assert.equal(run.status, 1);
      assert.equal(run.stdout, "", "nothing ran: no wrangler banner, no asset build");
      assert.equal(
        run.stderr,
        `npm run deploy: not deploying.\n  - ${EXAMPLE_EMAIL_PROBLEM}\n  - ${EMPTY_ORIGIN_PROBLEM}\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
