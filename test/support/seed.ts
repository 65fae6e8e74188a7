import { env } from "cloudflare:workers";
import { createDb } from "../../src/control/db";
import { hashPassword } from "../../src/control/accounts/password";
import { grantMembership, signUpWithPasswordHash } from "../../src/control/accounts/service";
import { createApiKey } from "../../src/control/api-keys/service";

/**
 * Accounts for tests that need one but do not test sign-up: the same domain functions the routes call
 * (sign-up, the operator's Max grant, key creation), without HTTP and with one password hash for all.
 * A real 100,000-iteration hash of SEED_PASSWORD, derived once per workerd: signing in with it works
 * as for any account. test/http/account.test.ts and auth.test.ts keep real sign-ups over HTTP.
 */
export const SEED_PASSWORD = "correct horse battery";

let seedHash: Promise<string> | undefined;
const seedPasswordHash = () => {
  seedHash ??= hashPassword(SEED_PASSWORD);
  return seedHash;
};

export interface SeededAccount {
  email: string;
  password: string;
  session: string;
  accountId: string;
}

/** A new free account with a session, as POST /auth/signup makes it. */
export async function seedAccount(email: string): Promise<SeededAccount> {
  const signedIn = await signUpWithPasswordHash(createDb(env.DB), env, {
    email,
    passwordHash: await seedPasswordHash(),
  });
  return { email, password: SEED_PASSWORD, session: signedIn.token, accountId: signedIn.account.id };
}

/** The operator's grant of Max without an end, as PUT /admin/memberships gives it. */
export const seedMax = (email: string) => grantMembership(createDb(env.DB), env, { email, plan: "max" });

/** A new API key of the account, as POST /account/api-keys makes it: its id and its plaintext. */
export async function seedKey(accountId: string, name = "test key"): Promise<{ id: string; key: string }> {
  const { id, key } = await createApiKey(createDb(env.DB), env, accountId, { name });
  return { id, key };
}
