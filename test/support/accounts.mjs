// Accounts for the Node-side suites, made through the same routes a user and the operator use
// (src/http/account.ts, src/http/admin.ts), against a server from wrangler-dev.mjs.
import { randomBytes } from "node:crypto";

/** A JSON request; throws with the status and body unless it answers 2xx. */
async function request(base, path, { method = "POST", token, body }) {
  const response = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A unique email and a password that passes the sign-up rules. */
export const newCredentials = (prefix = "test") => ({
  email: `${prefix}-${randomBytes(4).toString("hex")}@example.com`,
  password: `pw-${randomBytes(12).toString("hex")}`,
});

/** Grants Max through `PUT /admin/memberships`; resolves with the account. A dated grant, as the page shows its end. */
export const grantMax = (
  { base, adminToken },
  email,
  expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString(),
) => request(base, "/admin/memberships", { method: "PUT", token: adminToken, body: { email, plan: "max", expiresAt } });

/** Signs up a fresh account (Max unless `max: false`) and creates an API key with its session. */
export async function accountWithKey(server, { max = true, prefix = "test" } = {}) {
  const credentials = newCredentials(prefix);
  const { token } = await request(server.base, "/auth/signup", { body: credentials });
  if (max) await grantMax(server, credentials.email);
  const { key } = await request(server.base, "/account/api-keys", { token, body: { name: `${prefix} key` } });
  return { ...credentials, session: token, key };
}
