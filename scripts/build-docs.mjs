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

// The agent entry points, served by the Worker at /SKILL.md and /llms.txt (src/http/entry-points.ts) from these
// static copies rather than bundled as text modules: 9 KiB gzip less in the Worker bundle.
const entryPoints = join(root, "static", "vendor", "entry-points");
mkdirSync(entryPoints, { recursive: true });
for (const name of ["SKILL.md", "llms.txt"]) copyFileSync(join(root, name), join(entryPoints, name));
console.log("build-docs: SKILL.md, llms.txt -> static/vendor/entry-points/");
