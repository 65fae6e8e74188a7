// `npm run dev`: `wrangler dev` with the optional secrets of .dev.vars. Wrangler loads from .dev.vars only the names
// wrangler.toml declares ([vars] and [secrets] required), so an optional secret written there (VAPID_PRIVATE_KEY by
// scripts/ensure-dev-vars.mjs; STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET by hand, docs/billing.md) would silently
// stay out of the local Worker. Each is passed as `--var NAME:value`; arguments after `npm run dev --` come after
// them, so a `--var` given there wins.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const OPTIONAL_SECRETS = ["VAPID_PRIVATE_KEY", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"];

const lines = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8").split(/\r?\n/) : [];
const vars = lines.flatMap((line) => {
  const match = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
  if (!match || !OPTIONAL_SECRETS.includes(match[1])) return [];
  const value = match[2].replace(/^(["'])(.*)\1$/, "$2");
  return value ? ["--var", `${match[1]}:${value}`] : [];
});

const wrangler = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));
const child = spawn(process.execPath, [wrangler, "dev", ...vars, ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
