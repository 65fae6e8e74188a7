// Writes the OpenAPI 3.1 document the Worker serves at /api/v1/openapi.json to dist/openapi.json,
// without a running server: the /api/v1 app is built in Node (run with tsx, which loads the
// TypeScript sources) and asked for the document. `npm run lint:openapi` lints the result.
//
// Usage: tsx scripts/openapi-dump.mjs [outfile] [origin]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createV1App } from "../src/http/v1/app.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = process.argv[2] ?? join(root, "dist", "openapi.json");
// The document's `servers` entry is the request origin; lint it as served by `wrangler dev`.
const origin = process.argv[3] ?? "http://localhost:8787";

// The one binding the document reads, taken from wrangler.toml so the dump matches a deploy.
const contact = /^CONTACT_EMAIL\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"))?.[1];
if (!contact) throw new Error("CONTACT_EMAIL not found in wrangler.toml [vars]");

const res = await createV1App().request(`${origin}/openapi.json`, {}, { CONTACT_EMAIL: contact });
if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}: ${await res.text()}`);
const document = await res.json();

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(document, null, 2)}\n`);
console.log(`openapi-dump: ${Object.keys(document.paths).length} paths -> ${outFile}`);
