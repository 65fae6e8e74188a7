// Makes a VAPID key pair for Web Push (RFC 8292) as the Web Push ecosystem writes it: the raw 65-byte P-256 public
// point and the 32-byte private scalar, both base64url. `node scripts/vapid-keys.mjs` prints a pair and the two
// commands that set it for production (docs/deploy.md "Web Push"); scripts/ensure-dev-vars.mjs uses it for
// `npm run dev`. A new pair ends every stored subscription's use: browsers subscribed with the old public key.
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";

export function vapidKeys() {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = publicKey.export({ format: "jwk" });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]);
  return { publicKey: raw.toString("base64url"), privateKey: privateKey.export({ format: "jwk" }).d };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { publicKey, privateKey } = vapidKeys();
  console.log(`VAPID_PUBLIC_KEY=${publicKey}
VAPID_PRIVATE_KEY=${privateKey}

Set them for production (docs/deploy.md "Web Push"):
  1. wrangler.toml [vars]: VAPID_PUBLIC_KEY = "${publicKey}" and VAPID_SUBJECT = "mailto:<your address>"
  2. the private key as a secret: echo '${privateKey}' | npx wrangler secret put VAPID_PRIVATE_KEY`);
}
