// Builds the Worker's lazily loaded modules (src/lazy/load.ts): each library that only one route group uses,
// bundled alone into one self-contained ES module. A module is declared by its committed types,
// src/lazy/<name>.lazy.d.ts, one `export { … } from "<package>"`: the same statement, bundled, is
// src/lazy/<name>.lazy.js (gitignored), so what TypeScript sees and what runs cannot differ. wrangler uploads
// these files beside the main module (wrangler.toml: find_additional_modules, base_dir, the ESModule rule) and keeps
// `import("./<name>.lazy.js")` as a real dynamic import, so start-up neither parses nor evaluates them.
// Run by `npm run assets` and `npm run build`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { zodWithoutLocales } from "./zod-without-locales.mjs";

const root = join(import.meta.dirname, "..");

const dir = join(root, "src", "lazy");

for (const types of readdirSync(dir).filter((name) => name.endsWith(".lazy.d.ts"))) {
  const file = types.replace(/\.d\.ts$/, ".js");
  const result = await build({
    stdin: { contents: readFileSync(join(dir, types), "utf8"), resolveDir: root, loader: "ts" },
    outfile: join(dir, file),
    bundle: true,
    format: "esm",
    minify: true,
    // As wrangler bundles the main module: the same package entry points, and the runtime's own modules external.
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*", "cloudflare:*"],
    plugins: [zodWithoutLocales],
    define: { "process.env.NODE_ENV": '"production"' },
    target: "es2024",
    metafile: true,
    logLevel: "warning",
  });
  const { bytes, imports } = Object.values(result.metafile.outputs)[0];
  // A lazy module shares nothing with the main module: a bare or relative import would not resolve once uploaded.
  const foreign = imports.filter(({ path }) => !/^(node|cloudflare):/.test(path)).map(({ path }) => path);
  if (foreign.length) throw new Error(`src/lazy/${file} imports ${foreign.join(", ")}: only node:* and cloudflare:*`);
  console.log(`build-lazy-modules: src/lazy/${types} -> ${file} (${(bytes / 1024).toFixed(1)} KiB)`);
}
