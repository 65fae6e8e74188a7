// Gives a fresh clone a local ADMIN_TOKEN in .dev.vars (gitignored), so `npm run dev`
// serves the admin route and `npm run demo-key` can grant Max. Never used in production.
// It also keeps PUBLIC_ORIGIN empty locally (links then point at the local server, even once wrangler.toml names the
// production origin), names a mail sender, so mail is on and simulated by wrangler, and sets a local CREDENTIAL_SECRET,
// which signs API keys and feed URLs (src/domain/credential-mac.ts): keys made under `npm run dev` work there only,
// and a local VAPID pair, so the tasks page offers browser notifications for reminders (docs/deploy.md "Web Push").
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { vapidKeys } from "./vapid-keys.mjs";

if (!existsSync(".dev.vars")) {
  writeFileSync(".dev.vars", `ADMIN_TOKEN=dev-${randomBytes(18).toString("base64url")}\n`);
  console.log("Created .dev.vars with a local ADMIN_TOKEN.");
}
if (!/^MAIL_FROM=/m.test(readFileSync(".dev.vars", "utf8"))) {
  // wrangler dev simulates the EMAIL binding: mail is "sent" to files under .wrangler/tmp/email/ and logged.
  appendFileSync(".dev.vars", "MAIL_FROM=todo@localhost.test\n");
  console.log("Added MAIL_FROM to .dev.vars: local mail is simulated and logged (README, Development notes).");
}
if (!/^PUBLIC_ORIGIN=/m.test(readFileSync(".dev.vars", "utf8"))) {
  appendFileSync(".dev.vars", "PUBLIC_ORIGIN=\n");
  console.log("Added an empty PUBLIC_ORIGIN to .dev.vars: local links use the local server's origin.");
}
if (!/^CREDENTIAL_SECRET=/m.test(readFileSync(".dev.vars", "utf8"))) {
  appendFileSync(".dev.vars", `CREDENTIAL_SECRET=dev-${randomBytes(32).toString("base64url")}\n`);
  console.log("Added a local CREDENTIAL_SECRET to .dev.vars: it signs the API keys and feed URLs made locally.");
}
if (!/^VAPID_PRIVATE_KEY=/m.test(readFileSync(".dev.vars", "utf8"))) {
  const { publicKey, privateKey } = vapidKeys();
  appendFileSync(
    ".dev.vars",
    `VAPID_PUBLIC_KEY=${publicKey}\nVAPID_PRIVATE_KEY=${privateKey}\nVAPID_SUBJECT=mailto:dev@localhost.test\n`,
  );
  console.log("Added a local VAPID key pair to .dev.vars: the tasks page offers browser notifications for reminders.");
}
