// `npm run deploy` refuses placeholder configuration before wrangler runs (scripts/deploy.mjs, deploy-checks.mjs).
// Node's test runner, not the Workers pool: these are the repository's scripts, run as a person runs them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  adminTokenNotice,
  EXAMPLE_CONTACT_EMAIL,
  generateAdminToken,
  planAdminToken,
  planCredentialSecret,
  varProblems,
} from "../../scripts/deploy-checks.mjs";

const root = join(import.meta.dirname, "..", "..");
const OK_VARS = { CONTACT_EMAIL: "help@tasks.acme.dev", PUBLIC_ORIGIN: "https://tasks.acme.dev" };
const EXAMPLE_EMAIL_PROBLEM =
  'CONTACT_EMAIL is "support@todo.example.com", an example address, and GET /api/v1/ and the OpenAPI document ' +
  'show it to every user. Set your own in wrangler.toml [vars]: CONTACT_EMAIL = "support@your-domain.com"';
const EMPTY_ORIGIN_PROBLEM =
  "PUBLIC_ORIGIN is empty: links, problem types and OAuth would follow each request's Host. Set it in " +
  'wrangler.toml [vars] to the origin users reach: PUBLIC_ORIGIN = "https://todo.your-domain.com" (a custom ' +
  'domain, see `routes`) or "https://todo-calendar.<your-subdomain>.workers.dev"';

const noSecrets = () => ({ ok: true, stdout: "[]", stderr: "" });

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

  it("refuses a short ADMIN_TOKEN, and accepts one deployed or given", () => {
    const unused = () => assert.fail("no token is generated when one is given or deployed");
    const hasIt = { ok: true, stdout: '[{ "name": "ADMIN_TOKEN", "type": "secret_text" }]', stderr: "" };
    assert.match(planAdminToken({ fromEnv: "short", secretList: undefined }).problems[0] ?? "", /has 5 characters/);
    assert.deepEqual(planAdminToken({ fromEnv: undefined, secretList: hasIt, generate: unused }), {
      upload: undefined,
      generated: false,
      problems: [],
    });
    const given = "x".repeat(44);
    assert.deepEqual(planAdminToken({ fromEnv: given, secretList: undefined, generate: unused }), {
      upload: given,
      generated: false,
      problems: [],
    });
  });

  it("generates an ADMIN_TOKEN when the Worker has none, and refuses when it cannot tell", () => {
    const firstDeploy = {
      ok: false,
      stdout: "",
      stderr: 'X [ERROR] Worker "todo-calendar" not found.\n\nIf this is a new Worker, run `wrangler deploy` first',
    };
    const noAdminToken = { ok: true, stdout: '[{ "name": "STRIPE_SECRET_KEY", "type": "secret_text" }]', stderr: "" };
    for (const secretList of [firstDeploy, noAdminToken]) {
      for (const fromEnv of [undefined, ""]) {
        const plan = planAdminToken({ fromEnv, secretList, generate: () => "generated-token" });
        assert.deepEqual(plan, { upload: "generated-token", generated: true, problems: [] });
      }
    }
    const offline = { ok: false, stdout: "", stderr: "X [ERROR] A request to the Cloudflare API failed: fetch failed" };
    const plan = planAdminToken({ fromEnv: undefined, secretList: offline, generate: () => "never" });
    assert.equal(plan.generated, false);
    assert.match(plan.problems[0] ?? "", /^`wrangler secret list` failed, .* not deploying rather than replace it/);
  });

  it("generates CREDENTIAL_SECRET only when the Worker surely has none, and never shows it", () => {
    const firstDeploy = { ok: false, stdout: "", stderr: 'X [ERROR] Worker "todo-calendar" not found.' };
    const without = { ok: true, stdout: '[{ "name": "ADMIN_TOKEN", "type": "secret_text" }]', stderr: "" };
    for (const secretList of [firstDeploy, without]) {
      assert.deepEqual(planCredentialSecret({ secretList, generate: () => "fresh" }), {
        upload: "fresh",
        problems: [],
      });
    }
    const has = { ok: true, stdout: '[{ "name": "CREDENTIAL_SECRET", "type": "secret_text" }]', stderr: "" };
    const never = () => assert.fail("a deployed CREDENTIAL_SECRET is never replaced");
    assert.deepEqual(planCredentialSecret({ secretList: has, generate: never }), { upload: undefined, problems: [] });
    const offline = { ok: false, stdout: "", stderr: "X [ERROR] A request to the Cloudflare API failed: fetch failed" };
    const refused = planCredentialSecret({ secretList: offline, generate: never });
    assert.match(refused.problems[0] ?? "", /CREDENTIAL_SECRET is unknown; not deploying rather than replace it/);
  });

  it("makes 32 random bytes, base64url", () => {
    const [a, b] = [generateAdminToken(), generateAdminToken()];
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(a, "base64url").length, 32);
    assert.notEqual(a, b);
  });

  it("shows a generated token once with the warning to store it, and never a given one", () => {
    const token = generateAdminToken();
    const notice = adminTokenNotice(
      planAdminToken({ fromEnv: undefined, secretList: noSecrets(), generate: () => token }),
    );
    assert.equal(notice.split(token).length - 1, 1, "the token appears exactly once");
    assert.match(notice, /Store this now: it is not shown again\./);
    assert.equal(adminTokenNotice(planAdminToken({ fromEnv: token, secretList: undefined })), "");
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
