// Bundles the account page (web/main.ts) into static/app.js for Workers static assets.
// Plain Node ESM so it runs under Node 20 and 22; the output is gitignored.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ["web/main.ts"],
  outfile: "static/app.js",
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
