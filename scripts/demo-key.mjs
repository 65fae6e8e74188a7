// Signs up a demo account on a running `npm run dev`, grants it Max through the admin route,
// creates an API key and prints it with a first curl.
//   `npm run demo-key -- 8801` or `-- http://localhost:8801`: where `npm run dev` runs (else BASE_URL, else
//   http://localhost:8787: scripts/demo-key-target.mjs); ADMIN_TOKEN (default: read from .dev.vars)
import { existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { demoKeyTarget, unreachableMessage } from "./demo-key-target.mjs";

const target = demoKeyTarget(process.argv.slice(2), process.env);
if (target.error) {
  console.error(target.error);
  process.exit(1);
}
const { base } = target;
const adminToken =
  process.env.ADMIN_TOKEN ??
  (existsSync(".dev.vars") ? /^ADMIN_TOKEN=(.*)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim() : undefined);
if (!adminToken) {
  console.error("No ADMIN_TOKEN: set it in the environment or run `npm run dev` once to create .dev.vars.");
  process.exit(1);
}

async function call(path, { method = "POST", token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).catch((e) => {
    console.error(unreachableMessage(target, e.cause?.code ?? e.message));
    process.exit(1);
  });
  const data = res.status === 204 ? null : await res.json();
  if (!res.ok) {
    console.error(`${method} ${path} failed: ${res.status} ${data?.detail ?? ""}`);
    process.exit(1);
  }
  return data;
}

const email = `demo-${randomBytes(4).toString("hex")}@example.com`;
const password = randomBytes(12).toString("base64url");
const { token } = await call("/auth/signup", { body: { email, password } });
await call("/admin/memberships", { method: "PUT", token: adminToken, body: { email, plan: "max" } });
const { key } = await call("/account/api-keys", { token, body: { name: "demo key" } });

console.log(`Demo account: ${email}  password: ${password}  (plan: Max)`);
console.log(`API key (shown once): ${key}\n`);
console.log(`curl -s ${base}/api/v1/tasks -H "Authorization: Bearer ${key}"`);
console.log(
  `curl -s ${base}/api/v1/tasks -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{"title":"My first task","due":"2026-12-24"}'`,
);
