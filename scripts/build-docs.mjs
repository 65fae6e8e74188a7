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
