// `npm run deploy`: from a fresh Cloudflare account to a running Worker in one command (docs/deploy.md).
//   1. refuses, before wrangler runs, the example CONTACT_EMAIL and a missing PUBLIC_ORIGIN (scripts/deploy-checks.mjs);
//   2. then, logged in, a short ADMIN_TOKEN; when there is none (neither in the environment nor on the deployed
//      Worker) it generates one, and shows it once after the deploy stored it;
//   3. builds the assets, creates the D1 database if the account has none of that name, applies its migrations;
//   4. `wrangler deploy --minify`, which creates the KV namespace on the first deploy (automatic provisioning) and
//      uploads ADMIN_TOKEN (given or generated) when there is one to upload. A given token is never printed.
//      CREDENTIAL_SECRET (it signs API keys and feed URLs) is generated and uploaded when the Worker has none, never
//      replaced, and never printed.
// Migrations run before the new code, as every migration here only adds. Arguments reach `wrangler deploy`
// (`--config <file>` every wrangler command); with --dry-run only the first check runs, then `wrangler deploy --dry-run`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { adminTokenNotice, planAdminToken, planCredentialSecret, varProblems } from "./deploy-checks.mjs";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const configAt = args.findIndex((a) => a === "--config" || a === "-c");
const configPath = configAt >= 0 ? args[configAt + 1] : "wrangler.toml";
const wranglerBin = join(import.meta.dirname, "..", "node_modules", "wrangler", "bin", "wrangler.js");

function refuse(problems) {
  console.error(`npm run deploy: not deploying.\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}

/** Runs wrangler on this Node. `capture`: stdout is returned (and not a terminal, so wrangler never prompts). */
function wrangler(wranglerArgs, { capture = false } = {}) {
  const result = spawnSync(process.execPath, [wranglerBin, ...wranglerArgs, "--config", configPath], {
    stdio: ["ignore", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
    encoding: "utf8",
  });
  return { ok: result.status === 0, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

function must(step, result) {
  if (result.ok) return result;
  if (result.stderr) process.stderr.write(result.stderr);
  console.error(`npm run deploy: ${step} failed.`);
  process.exit(1);
}

const { rawConfig } = experimental_readRawConfig({ config: configPath });
const problems = varProblems(rawConfig.vars ?? {});
if (problems.length > 0) refuse(problems);

/** What this deploy does with ADMIN_TOKEN (planAdminToken); none on a dry run, which uploads nothing. */
let adminToken = { upload: undefined, generated: false };
let credentialSecret = { upload: undefined };
if (!dryRun) {
  const databases = wrangler(["d1", "list", "--json"], { capture: true });
  if (!databases.ok) {
    process.stderr.write(databases.stderr);
    refuse([
      "wrangler cannot reach your Cloudflare account. Log in with `npx wrangler login`, or set CLOUDFLARE_API_TOKEN " +
        "(and CLOUDFLARE_ACCOUNT_ID when the token reaches several accounts), then run `npm run deploy` again",
    ]);
  }
  const fromEnv = process.env.ADMIN_TOKEN;
  // The Worker does not exist before its first deploy: then `secret list` fails with "not found".
  const secretList = wrangler(["secret", "list", "--format", "json"], { capture: true });
  adminToken = planAdminToken({ fromEnv, secretList });
  credentialSecret = planCredentialSecret({ secretList });
  if (adminToken.problems.length + credentialSecret.problems.length > 0) {
    refuse([...adminToken.problems, ...credentialSecret.problems]);
  }

  const db = rawConfig.d1_databases?.find((d) => d.binding === "DB");
  if (!JSON.parse(databases.stdout).some((d) => d.name === db.database_name)) {
    must(`creating the D1 database "${db.database_name}"`, wrangler(["d1", "create", db.database_name]));
  }
  must("applying the D1 migrations", wrangler(["d1", "migrations", "apply", "DB", "--remote"]));
}

must("npm run assets", { ok: spawnSync("npm", ["run", "assets"], { stdio: "inherit" }).status === 0 });
const secretArgs = [];
const secrets = {
  ...(adminToken.upload ? { ADMIN_TOKEN: adminToken.upload } : {}),
  ...(credentialSecret.upload ? { CREDENTIAL_SECRET: credentialSecret.upload } : {}),
};
const secretsDir = Object.keys(secrets).length > 0 ? mkdtempSync(join(tmpdir(), "deploy-")) : undefined;
if (secretsDir) {
  const file = join(secretsDir, "secrets.json");
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  secretArgs.push("--secrets-file", file);
}
const deployArgs = args.filter((_, i) => configAt < 0 || (i !== configAt && i !== configAt + 1));
const deploy = wrangler(["deploy", "--minify", ...secretArgs, ...deployArgs]);
if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
// Shown after the attempt, also a failed one: wrangler may have stored the secret before failing, and the next
// run would then find it deployed and never show it. If it stored nothing, the next run makes a new one.
if (adminToken.generated) {
  console.log(adminTokenNotice(adminToken));
  if (!deploy.ok) console.log("The deploy failed: if it stored nothing, the next `npm run deploy` makes a new one.");
}
must("wrangler deploy", deploy);
