// Builds the MCP App for tasks (issue 37 item 2): web/app/main.ts (Preact with htm, and the ext-apps SDK's
// `App`) bundled by esbuild and inlined with its stylesheet into ONE self-contained HTML file,
// static/mcp-app/tasks.html. The Worker serves it as the `ui://tasks/app.html` resource, read from static
// assets at request time (src/mcp/app/resource.ts), so none of it weighs on the Worker's bundle.
// The page's own CSP allows only these two inline blocks, by hash: no source, no wildcard.
// Over LIMIT_KIB gzip the build fails; `--sizes` prints the size. Plain Node ESM; the output is gitignored.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { zodWithoutLocales } from "./zod-without-locales.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const LIMIT_KIB = 200;
const out = new URL("../static/mcp-app/tasks.html", import.meta.url);

const { outputFiles } = await build({
  absWorkingDir: root,
  plugins: [zodWithoutLocales],
  entryPoints: ["web/app/main.ts"],
  bundle: true,
  write: false,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
// Inside an inline <script>, "</script" would end it early: escaped, the JavaScript reads the same.
const script = outputFiles[0].text.replaceAll("</script", "<\\/script");
const style = readFileSync(new URL("../web/app/app.css", import.meta.url), "utf8");
const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

// `{{access}}` is filled per request with what the connection may do ("write" or "read").
const csp = [
  "default-src 'none'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(style)}`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="tasks-access" content="{{access}}">
<title>Tasks</title>
<style>${style}</style>
</head>
<body>
<div id="app"></div>
<script type="module">${script}</script>
</body>
</html>
`;
mkdirSync(new URL(".", out), { recursive: true });
writeFileSync(out, html);

const raw = Buffer.byteLength(html) / 1024;
const zipped = gzipSync(html).length / 1024;
if (zipped > LIMIT_KIB) {
  console.error(`static/mcp-app/tasks.html is ${zipped.toFixed(1)} KiB gzip, over the ${LIMIT_KIB} KiB limit.`);
  process.exit(1);
}
console.log(`build-app: static/mcp-app/tasks.html ${raw.toFixed(1)} KiB, ${zipped.toFixed(1)} KiB gzip`);
