import { afterEach, describe, expect, it } from "vitest";
import { call, createTask, json, maxUser } from "../helpers";
import { HOOK_URL, receiver, runAlarm } from "./support";

let restore = () => {};
afterEach(() => restore());

// Issue 35 item 16: the account page creates webhooks and shows each one's deliveries and retries.
describe("the account page's webhooks (/account/webhooks)", () => {
  it("creates one with its session, and lists its recent attempts and the next retry", async () => {
    const user = await maxUser("page-hooks");
    const res = await call("/account/webhooks", {
      token: user.session,
      body: { url: HOOK_URL, description: "From the page" },
    });
    expect(res.status).toBe(201);
    const hook = await json(res);
    expect([hook.secret.startsWith("whsec_"), hook.description]).toEqual([true, "From the page"]);
    const bad = await call("/account/webhooks", { token: user.session, body: { url: "http://example.com/x" } });
    expect([bad.status, (await json(bad)).detail]).toEqual([400, "The URL must use https."]);

    const r = receiver(() => new Response("busy", { status: 503 }));
    restore = r.restore;
    await createTask(user.key, { title: "Retried" });
    const before = Date.now();
    await runAlarm(user.accountId);
    const [page] = (await json(await call("/account/webhooks", { token: user.session }))).data;
    expect(page.recentDeliveries).toEqual([expect.objectContaining({ type: "task.created", attempt: 1, status: 503 })]);
    expect(page.recentFailures).toHaveLength(1);
    expect(page.pending).toEqual([expect.objectContaining({ type: "task.created", attempts: 1 })]);
    // The first retry comes about 10 s after the failed attempt (delivery.ts RETRY_DELAYS_MS).
    const next = Date.parse(page.pending[0].nextAttemptAt) - before;
    expect(next).toBeGreaterThanOrEqual(10_000);
    expect(next).toBeLessThan(20_000);
    expect(JSON.stringify(page)).not.toContain("whsec_");
  });
});
