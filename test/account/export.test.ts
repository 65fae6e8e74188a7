import { deliver, event, subscription } from "../billing/support";
import { describe, expect, it } from "vitest";
import { AccountExport } from "../../src/http/account-export";
import { accountSql, call, json, maxUser } from "../helpers";
import { seededAccount } from "./seed";

describe("GET /account/export", () => {
  it("holds exactly the account's data, as a download in the documented shape", async () => {
    const mine = await seededAccount("export-mine");
    const theirs = await seededAccount("export-theirs");
    const res = await call("/account/export", { token: mine.session });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="todo-export-\d{4}-\d\d-\d\d\.json"$/,
    );
    const text = await res.text();
    const doc = AccountExport.parse(JSON.parse(text));

    expect(doc.account).toMatchObject({ id: mine.accountId, email: mine.email, timeZone: "UTC" });
    expect(doc.membership).toMatchObject({ plan: "max", active: true });
    // Completed tasks included, deleted ones not.
    const { open, done, idempotent } = mine.taskIds;
    expect(doc.tasks.map((t) => t.id).sort()).toEqual([open, done, idempotent].sort());
    expect(doc.tasks.find((t) => t.id === done)).toMatchObject({ completed: true });
    expect(doc.tasks.find((t) => t.id === open)).toMatchObject({
      title: "export-mine open",
      notes: "some notes",
      due: "2026-12-24",
      listId: "home",
    });
    // Live lists (the one made for the task's listId "home" too), not the deleted one.
    expect(doc.lists.map((l) => l.id).sort()).toEqual([mine.listIds.live, "home"].sort());
    expect(doc.lists.find((l) => l.id === mine.listIds.live)).toMatchObject({ name: "export-mine list" });
    expect(doc.tasks.find((t) => t.id === done)).toMatchObject({ listId: mine.listIds.live });
    // Revoked keys too, as metadata only.
    expect(doc.apiKeys.map((k) => k.id).sort()).toEqual([mine.keyId, mine.revokedKeyId].sort());
    expect(doc.sessions).toHaveLength(2);
    expect(doc.sessions.filter((s) => s.current)).toHaveLength(1);
    // The app connected over OAuth, without its tokens.
    expect(doc.connections).toMatchObject([
      { clientName: "export-mine agent", redirectHost: "client.example", scopes: ["tasks:read", "tasks:write"] },
    ]);

    // Nothing of the other account, no secret and no hash.
    for (const needle of [
      theirs.accountId,
      theirs.email,
      "export-theirs",
      mine.key,
      mine.session,
      mine.secondSession,
      mine.connection.access_token,
      mine.connection.refresh_token,
      "export-mine deleted",
      "export-mine old list",
    ]) {
      expect(text, needle).not.toContain(needle);
    }
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(text).not.toMatch(/keyHash|tokenHash|passwordHash|pbkdf2/);
  });

  it("exports an account with no tasks as an empty list", async () => {
    const user = await maxUser("export-empty");
    const doc = AccountExport.parse(await json(await call("/account/export", { token: user.session })));
    expect(doc.tasks).toEqual([]);
    expect(doc.lists).toEqual([]);
  });

  it("pages through more tasks than one page holds, in id order, none twice", async () => {
    const user = await maxUser("export-pages");
    const { EXPORT_PAGE_SIZE } = await import("../../src/object/export");
    const count = EXPORT_PAGE_SIZE * 2 + 7;
    const ids = Array.from({ length: count }, (_, i) => `t-${String(i).padStart(5, "0")}`);
    // Written straight into the account's object, where its tasks live.
    for (let i = 0; i < ids.length; i += 25) {
      const chunk = ids.slice(i, i + 25);
      await accountSql(
        user.accountId,
        `INSERT INTO tasks (id, title) VALUES ${chunk.map(() => "(?, ?)").join(", ")}`,
        ...chunk.flatMap((id) => [id, `task ${id}`]),
      );
    }
    const doc = AccountExport.parse(await json(await call("/account/export", { token: user.session })));
    expect(doc.tasks.map((t) => t.id)).toEqual(ids);
  });

  it("refuses an API key and a missing session with 401 problem+json", async () => {
    const user = await maxUser("export-key");
    for (const token of [user.key, undefined]) {
      const res = await call("/account/export", { token });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

// Issue 35 item 26: billing rows and webhooks were missing from the export.
describe("GET /account/export: billing and webhooks", () => {
  it("carries the account's webhooks without any secret, and its Stripe rows", async () => {
    const user = await maxUser("export-hooks");
    const created = await json(
      await call("/api/v1/webhooks", {
        token: user.key,
        body: { url: "https://example.com/hook", description: "notes sync", events: ["task.created"] },
      }),
    );
    await call(`/api/v1/webhooks/${created.id}/rotate-secret`, { method: "POST", token: user.key });
    const sub = subscription({ accountId: user.accountId, customer: "cus_export_1" });
    expect((await deliver(event("customer.subscription.updated", sub))).status).toBe(200);

    const text = await (await call("/account/export", { token: user.session })).text();
    expect(text).not.toContain("whsec_");
    expect(text).not.toMatch(/"secret"|previousSecret"/);
    const doc = AccountExport.parse(JSON.parse(text));
    expect(doc.webhooks).toEqual([
      expect.objectContaining({
        id: created.id,
        url: "https://example.com/hook",
        description: "notes sync",
        events: ["task.created"],
        enabled: true,
      }),
    ]);
    expect(doc.billing.subscriptions).toEqual([
      expect.objectContaining({ id: sub.id, status: "active", maxUntil: expect.any(String) }),
    ]);
    const empty = await maxUser("export-no-billing");
    const none = AccountExport.parse(await json(await call("/account/export", { token: empty.session })));
    expect([none.billing, none.webhooks]).toEqual([{ customer: null, subscriptions: [] }, []]);
  });
});
