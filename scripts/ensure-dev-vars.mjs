// Gives a fresh clone a local ADMIN_TOKEN in .dev.vars (gitignored), so `npm run dev`
// serves the admin route and `npm run demo-key` can grant Max. Never used in production.
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  writeFileSync(".dev.vars", `ADMIN_TOKEN=dev-${randomBytes(18).toString("base64url")}\n`);
  console.log("Created .dev.vars with a local ADMIN_TOKEN.");
}
