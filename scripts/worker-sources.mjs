// The Worker's sources, imported into a Node script without a running server: bundled with esbuild as the
// Worker's own bundle resolves modules (ESM-only and dual packages resolve the same way; text modules of
// wrangler's [[rules]] load as strings), then imported. Used by openapi-dump.mjs and build-skill.mjs.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The module `entry` (TypeScript source, paths from the repository root) exports, bundled and imported. */
export async function importWorkerSources(entry, name) {
  const work = mkdtempSync(join(tmpdir(), `${name}-`));
  try {
    const bundle = join(work, `${name}.mjs`);
    await build({
      absWorkingDir: root,
      stdin: { contents: entry, resolveDir: root, loader: "ts", sourcefile: `${name}.ts` },
      outfile: bundle,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      mainFields: ["module", "main"],
      conditions: ["workerd", "worker", "import"],
      loader: { ".md": "text", ".txt": "text", ".sql": "text" },
      external: ["cloudflare:*"],
      logLevel: "warning",
    });
    return await import(pathToFileURL(bundle).href);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The one binding the OpenAPI document reads, from wrangler.toml's [vars]: what is dumped matches a deploy. */
export function contactEmail() {
  const contact = /^CONTACT_EMAIL\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"))?.[1];
  if (!contact) throw new Error("CONTACT_EMAIL not found in wrangler.toml [vars]");
  return contact;
}
