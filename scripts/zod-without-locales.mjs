// An esbuild plugin: zod without its 64 locales, as the Worker bundles it (src/bundle/zod.ts, wrangler.toml [alias]),
// for code bundled outside wrangler (a lazily loaded module, the MCP App). A library may import "zod" or "zod/v4";
// the shim itself re-exports the real "zod/v4", so only other importers are redirected.
import { fileURLToPath } from "node:url";

const shim = fileURLToPath(new URL("../src/bundle/zod.ts", import.meta.url));
const shimFolder = fileURLToPath(new URL("../src/bundle/", import.meta.url));

export const zodWithoutLocales = {
  name: "zod-without-locales",
  setup(build) {
    build.onResolve({ filter: /^zod(\/v4)?$/ }, ({ importer }) =>
      importer.startsWith(shimFolder) ? undefined : { path: shim },
    );
  },
};
