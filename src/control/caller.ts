import { callAccount } from "./account-client";
import type { TaskCredential } from "../object/credentials";
import type { VerbArgs, VerbName, VerbValue } from "../object/verbs";

/**
 * Who a task request acts for, as every surface hands it to the verbs: the account (its object) and
 * the credential that object judges. REST builds one from an API key, MCP from a key or an OAuth
 * connection, the tasks page from a session.
 */
export interface AccountCaller {
  env: Env;
  accountId: string;
  credential: TaskCredential;
}

/** One verb for the caller: one call to its account's object, which judges the credential first. */
export const runVerb = <V extends VerbName>(caller: AccountCaller, verb: V, args: VerbArgs<V>): Promise<VerbValue<V>> =>
  callAccount(caller.env, caller.accountId, caller.credential, verb, args);
