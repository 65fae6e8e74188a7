import { describe, expect, it } from "vitest";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { json, signUp } from "../helpers";
import { limited, uniqueIp } from "./support";

/** The session routes (/account, /account/api-keys…) share one budget per account. */
describe("per-account limit on the session routes (wrangler.toml's [[ratelimits]])", { timeout: 60_000 }, () => {
  it("counts reads, key creation and revocation against one budget per account; other accounts are unaffected", async () => {
    const { quota } = RATE_POLICIES.perAccount;
    const account = await signUp("account-limit");
    const other = await signUp("account-limit-other");
    const statuses: number[] = [];
    let lastKeyId: string | undefined;
    for (let i = 0; i < 2 * quota; i++) {
      // Each request from another IP: the limit follows the account, not the address.
      const ip = uniqueIp();
      const token = account.session;
      const res =
        i % 3 === 0
          ? await limited("/account/api-keys", { token, ip, body: { name: `key ${i}` } })
          : i % 3 === 1 && lastKeyId
            ? await limited(`/account/api-keys/${lastKeyId}`, { method: "DELETE", token, ip })
            : await limited(i % 2 ? "/account" : "/account/api-keys", { token, ip });
      statuses.push(res.status);
      if (res.status === 201) lastKeyId = (await json(res)).id;
      else if (res.status === 429) {
        expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
        expect((await json(res)).code).toBe("rate_limited");
      } else await res.body?.cancel();
    }
    expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(quota);
    expect(statuses.filter((s) => s === 429)).toHaveLength(quota);
    expect((await limited("/account", { token: other.session })).status).toBe(200);
    console.log(`[hardening] per-account limit: ${2 * quota} session requests, ${quota} 2xx, ${quota} 429`);
  });

  it("shares the budget between the sessions of one account, and names its policy in the headers", async () => {
    const { quota } = RATE_POLICIES.perAccount;
    const account = await signUp("account-limit-sessions");
    const second = await limited("/auth/login", {
      ip: uniqueIp(),
      body: { email: account.email, password: account.password },
    });
    const secondSession: string = (await json(second)).token;
    const first = await limited("/account", { token: account.session });
    expect(first.headers.get("ratelimit-policy")).toBe(`"per-account";q=${quota};w=60`);
    expect(first.headers.get("ratelimit")).toMatch(new RegExp(`^"per-account";r=${quota - 1};t=\\d+$`));
    for (let i = 1; i < quota; i++)
      await (await limited("/account", { token: i % 2 ? secondSession : account.session })).body?.cancel();
    expect((await limited("/account/api-keys", { token: secondSession })).status).toBe(429);
    expect((await limited("/account/api-keys", { token: account.session, body: { name: "late" } })).status).toBe(429);
  });

  it("judges the session first: a bad token is 401, not 429, however busy the account", async () => {
    const res = await limited("/account", { token: `todo_sess_${"B".repeat(43)}` });
    expect(res.status).toBe(401);
  });
});
