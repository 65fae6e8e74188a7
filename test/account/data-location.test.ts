import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountObjectId } from "../../src/control/account-client";
import { dataLocationOf, newAccountId } from "../../src/domain/data-location";
import { accountSql, call, grant, json, uniqueEmail } from "../helpers";
import { SEED_PASSWORD } from "../support/seed";
import { probedAccounts, probedD1 } from "../support/d1-probes";
import { callWith } from "../hardening/support";

/**
 * Issue 36 item 9: an account whose data lives in the EU. Its object is made with
 * `ACCOUNTS.jurisdiction("eu")`, which local workerd does not implement ("Jurisdiction restrictions are not
 * implemented in workerd"); so these tests check the routing at its one seam, `accountObjectId`
 * (control/account-client.ts): there, and only locally, an EU object is a stand-in named `eu:<id>`. An EU
 * account's data must land in that object and never in the one its id would name globally.
 */

const objectFiles = async () => new Set((await listDurableObjectIds(env.ACCOUNTS)).map(String));

async function signUpIn(dataLocation?: unknown) {
  const email = uniqueEmail("where");
  const body =
    dataLocation === undefined ? { email, password: SEED_PASSWORD } : { email, password: SEED_PASSWORD, dataLocation };
  return call("/auth/signup", { body });
}

describe("where an account's data lives", () => {
  it("the id carries it: an EU id is a UUID of version 8, every id made before is global", () => {
    const eu = newAccountId("eu");
    expect(eu).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([dataLocationOf(eu), dataLocationOf(newAccountId("global")), dataLocationOf(crypto.randomUUID())]).toEqual([
      "eu",
      "global",
      "global",
    ]);
  });

  it("sign-up with dataLocation eu: its object is the EU one, and the account says so", async () => {
    const before = await objectFiles();
    const res = await signUpIn("eu");
    expect(res.status).toBe(201);
    const { token, account } = await json(res);
    expect(account.dataLocation).toBe("eu");
    expect(dataLocationOf(account.id)).toBe("eu");
    const made = [...(await objectFiles())].filter((id) => !before.has(id));
    expect(made).toEqual([accountObjectId(env, account.id).toString()]);
    expect(made).not.toContain(env.ACCOUNTS.idFromName(account.id).toString());
    expect(
      await env.DB.prepare("SELECT data_location AS d FROM accounts WHERE id = ?").bind(account.id).first(),
    ).toEqual({
      d: "eu",
    });
    expect((await json(await call("/account", { token }))).dataLocation).toBe("eu");

    // A key and a feed reach that object in one call, with no lookup.
    expect((await grant(account.email, "max")).status).toBe(200);
    const key = (await json(await call("/account/api-keys", { token, body: { name: "eu" } }))).key as string;
    const d1 = probedD1(env.DB);
    const accounts = probedAccounts(env.ACCOUNTS);
    const created = await callWith({ DB: d1.db, ACCOUNTS: accounts.namespace }, "/api/v1/tasks", {
      token: key,
      body: { title: "Stays in the EU", due: "2027-01-04" },
    });
    expect([created.status, d1.counter.trips, accounts.calls]).toEqual([201, 0, ["run"]]);
    expect(await accountSql(account.id, "SELECT title FROM tasks")).toEqual([{ title: "Stays in the EU" }]);
    const feed = await json(await call("/account/feed", { token, body: {} }));
    const ics = await call(new URL(feed.url).pathname);
    expect([ics.status, (await ics.text()).includes("Stays in the EU")]).toEqual([200, true]);

    // Export says where; erasure empties that same object.
    const exported = await json(await call("/account/export", { token }));
    expect(exported.account.dataLocation).toBe("eu");
    const erased = await call("/account", { method: "DELETE", token, body: { password: SEED_PASSWORD } });
    expect(erased.status).toBe(204);
    expect(await accountSql(account.id, "SELECT count(*) AS n FROM tasks")).toEqual([{ n: 0 }]);
  });

  it("global by default and when asked; anything else is 400", async () => {
    for (const dataLocation of [undefined, "global"]) {
      const res = await signUpIn(dataLocation);
      expect(res.status).toBe(201);
      const { account } = await json(res);
      expect([account.dataLocation, dataLocationOf(account.id)]).toEqual(["global", "global"]);
    }
    for (const dataLocation of ["us", "EU", 1, null]) {
      const res = await signUpIn(dataLocation);
      expect(res.status).toBe(400);
      expect((await json(res)).errors?.[0]?.path).toBe("dataLocation");
    }
  });
});
