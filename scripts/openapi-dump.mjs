// Writes the OpenAPI 3.1 document the Worker serves at /api/v1/openapi.json to dist/openapi.json,
// without a running server: the /api/v1 app is bundled for Node with esbuild (module resolution as
// in the Worker's own bundle, so ESM-only and dual packages resolve the same way), built, and asked
// for the document. `npm run lint:openapi` lints the result. Plain Node ESM for Node 20 and 22.
//
// Usage: node scripts/openapi-dump.mjs [outfile] [origin]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = process.argv[2] ?? join(root, "dist", "openapi.json");
// The document's `servers` entry is the request origin; dump it as served by `wrangler dev`.
const origin = process.argv[3] ?? "http://localhost:8787";

// The one binding the document reads, taken from wrangler.toml so the dump matches a deploy.
const contact = /^CONTACT_EMAIL\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"))?.[1];
if (!contact) throw new Error("CONTACT_EMAIL not found in wrangler.toml [vars]");

const work = mkdtempSync(join(tmpdir(), "openapi-dump-"));
try {
  const bundle = join(work, "v1-app.mjs");
  await build({
    absWorkingDir: root,
    entryPoints: ["src/http/v1/app.ts"],
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    // Text modules (wrangler [[rules]]) load as strings, as in the Worker bundle.
    loader: { ".md": "text", ".txt": "text" },
    external: ["cloudflare:*"],
    logLevel: "warning",
  });
  const { createV1App } = await import(pathToFileURL(bundle).href);
  const res = await createV1App().request(`${origin}/openapi.json`, {}, { CONTACT_EMAIL: contact });
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}: ${await res.text()}`);
  const document = await res.json();

  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`openapi-dump: ${Object.keys(document.paths).length} paths -> ${outFile}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
