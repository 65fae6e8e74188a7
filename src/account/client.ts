import type { AccountChange, AccountObject } from "./object";
import type { TaskCredential } from "./credentials";
import { unwrap } from "./result";
import type { VerbArgs, VerbName, VerbValue } from "./verbs";

/**
 * The Worker's side of the account objects: the one way to reach an account's object (by its id), and
 * the one call a task request makes to it. Errors come back as the same AppError the verb raised.
 */

/** The account's object. Its first `get` places it near the request that makes it (sign-up). */
export const accountObject = (env: Env, accountId: string): DurableObjectStub<AccountObject> =>
  env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));

/** Runs a verb for the account, after the object has judged the credential: one call. */
export async function callAccount<V extends VerbName>(
  env: Env,
  accountId: string,
  credential: TaskCredential,
  verb: V,
  args: VerbArgs<V>,
): Promise<VerbValue<V>> {
  const result = await accountObject(env, accountId).run({ accountId, credential, verb, args } as never);
  return unwrap(result as never) as VerbValue<V>;
}

/** Applies a control-plane change (a key, a membership, a time zone, a connection) to the account's object. */
export async function changeAccount(env: Env, accountId: string, change: AccountChange): Promise<void> {
  unwrap(await accountObject(env, accountId).change(accountId, change));
}
