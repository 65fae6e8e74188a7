import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callAccount } from "../../src/control/account-client";
import { createDb } from "../../src/control/db";
import { signUp as signUpAccount } from "../../src/control/accounts/service";
import { accountSql, signUp, uniqueEmail } from "../helpers";
import { probedAccounts, probedD1 } from "../support/d1-probes";

/**
 * An account's object from its start (src/object/account-object.ts): sign-up sets it up with `init`, with no
 * move from D1; the move runs only for an account D1 marks as waiting (src/control/move-from-d1.ts).
 */

function probedEnv() {
  const d1 = probedD1(env.DB);
  const accounts = probedAccounts(env.ACCOUNTS);
  return { env: { ...env, DB: d1.db, ACCOUNTS: accounts.namespace } as Env, d1, accounts };
}

const objectOf = (accountId: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));
const waiting = async (accountId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM waiting_moves WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>())!.n;
/** The first call a session makes: the credential alone (no Max needed). */
const identify = (probed: Env, accountId: string) =>
  callAccount(probed, accountId, { kind: "session" }, "identify", {} as never);
/** As before sign-up set objects up: the object has no account row. */
const forget = (accountId: string) =>
  runInDurableObject(objectOf(accountId), (_instance, state) => {
    state.storage.sql.exec("DELETE FROM account");
  });

describe("a new account's object", () => {
  it("is set up by sign-up's init, and its first call runs no move code: one object call, no D1 query", async () => {
    const atSignUp = probedAccounts(env.ACCOUNTS);
    const { account } = await signUpAccount(
      createDb(env.DB),
      { ...env, ACCOUNTS: atSignUp.namespace },
      { email: uniqueEmail("init"), password: "correct horse battery" },
    );
    expect(atSignUp.calls).toEqual(["init"]);
    expect(await accountSql(account.id, "SELECT id, plan, time_zone, erased_at FROM account")).toEqual([
      { id: account.id, plan: "free", time_zone: "UTC", erased_at: null },
    ]);
    expect(await waiting(account.id)).toBe(0);

    const first = probedEnv();
    expect(await identify(first.env, account.id)).toBeNull();
    expect([first.accounts.calls, first.d1.counter.trips]).toEqual([["run"], 0]);
  });
});

describe("an object without its account", () => {
  it("of an account D1 marks as waiting: moved, then the call made once more", async () => {
    const user = await signUp("waiting");
    await forget(user.accountId);
    await env.DB.prepare("INSERT INTO waiting_moves (account_id) VALUES (?)").bind(user.accountId).run();

    const probe = probedEnv();
    expect(await identify(probe.env, user.accountId)).toBeNull();
    // D1: the account's rows in one batch, then the moved rows and the mark deleted in another.
    expect([probe.accounts.calls, probe.d1.counter.trips]).toEqual([["run", "moveIn", "run"], 2]);
    expect(await waiting(user.accountId)).toBe(0);
    expect(await accountSql(user.accountId, "SELECT id FROM account")).toEqual([{ id: user.accountId }]);

    const next = probedEnv();
    await identify(next.env, user.accountId);
    expect([next.accounts.calls, next.d1.counter.trips]).toEqual([["run"], 0]);
  });

  it("of an account D1 does not mark: nothing moved, 401 after one D1 read", async () => {
    const user = await signUp("not-waiting");
    await forget(user.accountId);
    const probe = probedEnv();
    await expect(identify(probe.env, user.accountId)).rejects.toMatchObject({ code: "unauthorized" });
    expect([probe.accounts.calls, probe.d1.counter.trips]).toEqual([["run"], 1]);
    expect(await accountSql(user.accountId, "SELECT id FROM account")).toEqual([]);
  });
});

describe("D1 migration 0013", () => {
  it("marks every account that exists when it runs as waiting for the move from D1", async () => {
    await signUp("before-0013");
    const migrations = (env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS;
    const marking = migrations
      .find((migration) => migration.name.startsWith("0013_"))!
      .queries.filter((query) => query.includes("INSERT INTO"));
    expect(marking).toHaveLength(1);
    // As on a database where no account was marked yet: then the migration's own statement.
    await env.DB.prepare("DELETE FROM waiting_moves").run();
    await env.DB.prepare(marking[0]!).run();
    const unmarked = await env.DB.prepare(
      "SELECT count(*) AS n FROM accounts WHERE id NOT IN (SELECT account_id FROM waiting_moves)",
    ).first<{ n: number }>();
    const marked = await env.DB.prepare("SELECT count(*) AS n FROM waiting_moves").first<{ n: number }>();
    const accounts = await env.DB.prepare("SELECT count(*) AS n FROM accounts").first<{ n: number }>();
    expect([unmarked!.n, marked!.n]).toEqual([0, accounts!.n]);
    expect(accounts!.n).toBeGreaterThan(0);
    await env.DB.prepare("DELETE FROM waiting_moves").run();
  });
});
