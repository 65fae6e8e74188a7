import { env, exports } from "cloudflare:workers";
import { SEED_PASSWORD, seedAccount, seedKey, seedMax } from "./support/seed";

export const BASE = "http://example.com";
export const ADMIN_TOKEN = "test-admin-token";

export interface CallOptions {
  method?: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the Worker exactly as an HTTP client would. */
export function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  return exports.default.fetch(
    new Request(`${BASE}${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body }),
  );
}

export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

let counter = 0;
export const uniqueEmail = (label = "user") =>
  `${label}-${Date.now()}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export interface TestAccount {
  email: string;
  password: string;
  session: string;
  accountId: string;
}

/** A fresh free account with a session, seeded through the domain (test/support/seed.ts). */
export const signUp = (label?: string): Promise<TestAccount> => seedAccount(uniqueEmail(label));

/** A real sign-up over HTTP (POST /auth/signup, a new password hash): for tests of sign-up itself. */
export async function signUpOverHttp(label?: string): Promise<TestAccount> {
  const email = uniqueEmail(label);
  const password = SEED_PASSWORD;
  const res = await call("/auth/signup", { body: { email, password } });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const data = await json(res);
  return { email, password, session: data.token, accountId: data.account.id };
}

export async function grant(email: string, plan: "free" | "max", expiresAt?: string | null): Promise<Response> {
  return call("/admin/memberships", { method: "PUT", token: ADMIN_TOKEN, body: { email, plan, expiresAt } });
}

export async function createKey(session: string, name = "test key"): Promise<{ id: string; key: string }> {
  const res = await call("/account/api-keys", { token: session, body: { name } });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** A fresh account with an active Max membership and an API key, seeded through the domain. */
export async function maxUser(label = "max") {
  const account = await signUp(label);
  await seedMax(account.email);
  const key = await seedKey(account.accountId);
  return { ...account, key: key.key, keyId: key.id };
}

export async function createTask(key: string, body: Record<string, unknown> = { title: "A task" }) {
  const res = await call("/api/v1/tasks", { token: key, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

export const db = () => env.DB;

/**
 * Rows of SQL run in an account's own Durable Object (src/object/account-object.ts), where its tasks, lists,
 * search index and idempotency records live: for tests that look at or change stored rows directly.
 */
export async function accountSql<T = Record<string, SqlStorageValue>>(
  accountId: string,
  query: string,
  ...params: SqlStorageValue[]
): Promise<T[]> {
  const { runInDurableObject } = await import("cloudflare:test");
  const { accountObjectId } = await import("../src/control/account-client");
  const stub = env.ACCOUNTS.get(accountObjectId(env, accountId));
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec(query, ...params).toArray() as T[]);
}
