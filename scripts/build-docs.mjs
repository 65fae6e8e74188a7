// Copies Scalar's standalone bundle (vendor/scalar/standalone.js, checked in: see vendor/scalar/README.md)
// to static/vendor/scalar/standalone.js, so the API reference at /api/v1/docs loads it from this origin
// instead of a CDN (see src/http/v1/docs.ts). Run by `npm run assets`; the output is gitignored.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "static", "vendor", "scalar", "standalone.js");

mkdirSync(dirname(outFile), { recursive: true });
copyFileSync(join(root, "vendor", "scalar", "standalone.js"), outFile);
console.log("build-docs: vendor/scalar/standalone.js -> static/vendor/scalar/standalone.js");

// The agent entry points, served by the Worker at /SKILL.md, /references/REFERENCE.md and /llms.txt
// (src/http/entry-points.ts) from these static copies rather than bundled as text modules: 9 KiB gzip less in the
// Worker bundle. SKILL.md and its reference are generated and committed (`npm run skill`, scripts/build-skill.mjs);
// this copies them as they are, so the service serves what the repository shows.
const entryPoints = join(root, "static", "vendor", "entry-points");
const names = ["SKILL.md", "references/REFERENCE.md", "llms.txt"];
for (const name of names) {
  mkdirSync(dirname(join(entryPoints, name)), { recursive: true });
  copyFileSync(join(root, name), join(entryPoints, name));
}
console.log(`build-docs: ${names.join(", ")} -> static/vendor/entry-points/`);
