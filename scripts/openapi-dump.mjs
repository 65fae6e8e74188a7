// Writes the OpenAPI 3.1 document the Worker serves at /api/v1/openapi.json to dist/openapi.json,
// without a running server: the /api/v1 app is bundled for Node with esbuild (module resolution as
// in the Worker's own bundle, so ESM-only and dual packages resolve the same way), built, and asked
// for the document. `npm run lint:openapi` lints the result. Plain Node ESM for Node 20 and 22.
//
// Usage: node scripts/openapi-dump.mjs [outfile] [origin]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { contactEmail, importWorkerSources, root } from "./worker-sources.mjs";

const outFile = process.argv[2] ?? join(root, "dist", "openapi.json");
// The document's `servers` entry is the request origin; dump it as served by `wrangler dev`.
const origin = process.argv[3] ?? "http://localhost:8787";

const { createV1App } = await importWorkerSources('export { createV1App } from "./src/http/v1/app.ts";', "v1-app");
const res = await createV1App().request(`${origin}/openapi.json`, {}, { CONTACT_EMAIL: contactEmail() });
if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}: ${await res.text()}`);
const document = await res.json();
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(document, null, 2)}\n`);
console.log(`openapi-dump: ${Object.keys(document.paths).length} paths -> ${outFile}`);
