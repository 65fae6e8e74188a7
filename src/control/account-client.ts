import type { AccountChange } from "../object/changes";
import { dataLocationOf } from "../domain/data-location";
import type { NewAccount } from "../object/account-object";
import type { TaskCredential } from "../object/credentials";
import { moveFromD1 } from "./move-from-d1";
import { type Result, unwrap } from "../object/result";
import type { VerbArgs, VerbName, VerbValue } from "../object/verbs";

/**
 * The Worker's side of the account objects: the one way to reach an account's object (by its id), and
 * the one call a task request makes to it. Errors come back as the same AppError the verb raised.
 */

type AccountStub = ReturnType<Env["ACCOUNTS"]["get"]>;

/**
 * The one place an account's object id is made. The account's id says where its data lives
 * (domain/data-location.ts): an "eu" account's object is in the EU jurisdiction, so every credential
 * that names the account reaches it with no lookup. Local workerd (wrangler dev, the Vitest pool) has no
 * jurisdictions and throws "not implemented in workerd"; there alone an "eu" object is a stand-in of the
 * same namespace under another name (`eu:<id>`), so routing stays testable. Cloudflare never throws this.
 */
export function accountObjectId(env: Env, accountId: string): DurableObjectId {
  if (dataLocationOf(accountId) === "global") return env.ACCOUNTS.idFromName(accountId);
  try {
    return env.ACCOUNTS.jurisdiction("eu").idFromName(accountId);
  } catch (e) {
    if (!/not implemented in workerd/i.test(String(e))) throw e;
    return env.ACCOUNTS.idFromName(`eu:${accountId}`);
  }
}

/** The account's object. Its first `get` places it near the request that makes it (sign-up). */
export const accountObject = (env: Env, accountId: string): AccountStub =>
  env.ACCOUNTS.get(accountObjectId(env, accountId));

/**
 * One call to the account's object, and its value (or its error, thrown). An object without its account
 * answers ACCOUNT_MISSING: only then is D1 asked whether the account waits for the move from D1
 * (move-from-d1.ts); if it does, it is moved and the call made once more. Every other call costs no D1 query.
 */
export async function reachAccount<T>(
  env: Env,
  accountId: string,
  call: (object: AccountStub) => Promise<Result<T>>,
): Promise<T> {
  const object = accountObject(env, accountId);
  let result = await call(object);
  if (!result.ok && result.accountMissing && (await moveFromD1(env, accountId, object))) result = await call(object);
  return unwrap(result);
}

/** Runs a verb for the account, after the object has judged the credential: one call. */
export function callAccount<V extends VerbName>(
  env: Env,
  accountId: string,
  credential: TaskCredential,
  verb: V,
  args: VerbArgs<V>,
): Promise<VerbValue<V>> {
  return reachAccount(
    env,
    accountId,
    (object) => object.run({ credential, verb, args } as never) as Promise<Result<VerbValue<V>>>,
  );
}

/** Applies a control-plane change (a key, a membership, a time zone, a connection) to the account's object. */
export async function changeAccount(env: Env, accountId: string, change: AccountChange): Promise<void> {
  await reachAccount(env, accountId, (object) => object.change(change));
}

/** Sign-up: sets up the new account's object with its row (account-object.ts `init`). */
export async function initAccount(env: Env, row: NewAccount): Promise<void> {
  unwrap(await accountObject(env, row.id).init(row));
}
