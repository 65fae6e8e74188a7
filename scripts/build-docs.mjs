// Copies Scalar's standalone bundle to static/vendor/scalar/standalone.js, so the API reference at
// /api/v1/docs loads it from this origin instead of a CDN (see src/http/v1/docs.ts).
// Run by `npm run assets`. Plain Node ESM for Node 20 and 22; the output is gitignored.
//
// The bundle comes from the @scalar/api-reference package (dist/browser/standalone.js). SCALAR_STANDALONE
// may name another copy of that file. When neither exists, a small stand-in is written that links
// to the OpenAPI document, and a warning says so: the rest of the build and the tests do not need it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "static", "vendor", "scalar", "standalone.js");
const packageDir = join(root, "node_modules", "@scalar", "api-reference");
const source = process.env.SCALAR_STANDALONE || join(packageDir, "dist", "browser", "standalone.js");

mkdirSync(dirname(outFile), { recursive: true });

if (existsSync(source)) {
  copyFileSync(source, outFile);
  const version = existsSync(join(packageDir, "package.json"))
    ? JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version
    : "unknown";
  console.log(`build-docs: Scalar standalone bundle ${version} -> static/vendor/scalar/standalone.js`);
} else {
  console.warn(
    "build-docs: WARNING @scalar/api-reference is not installed; /api/v1/docs gets a stand-in that links to /api/v1/openapi.json.",
  );
  writeFileSync(
    outFile,
    `// Stand-in: @scalar/api-reference was not installed when the assets were built.
window.Scalar = {
  createApiReference(selector, config) {
    const root = document.querySelector(selector);
    const p = document.createElement("p");
    const a = document.createElement("a");
    a.href = config.url;
    a.textContent = config.url;
    p.append("The interactive reference is not bundled in this build. The OpenAPI 3.1 document: ", a);
    root.replaceChildren(p);
  },
};
`,
  );
}
