import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/control/db";
import { purgeControlPlane } from "../../src/control/retention";
import { recordSecurityEvent } from "../../src/control/security-events";
import { call, json, signUpOverHttp } from "../helpers";

/** The audit trail a person sees (issue 36 item 8): recorded, listed newest first, exported, kept 90 days. */

const UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/130.0 Safari/537.36";
const events = async (token: string) => {
  const res = await call("/account/security-events", { token });
  expect(res.status).toBe(200);
  return (await json(res)).data as { type: string; at: string; device?: string; [k: string]: unknown }[];
};

describe("GET /account/security-events", () => {
  it("lists sign-ins with their device, a password change and an ended session, newest first", async () => {
    const account = await signUpOverHttp("audit");
    const login = await call("/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { "User-Agent": UA },
    });
    const token = (await json(login)).token as string;
    const changed = await call("/account/password", {
      token,
      body: { currentPassword: account.password, newPassword: "another long password" },
    });
    expect(changed.status).toBe(204);
    const { data: sessions } = await json(await call("/account/sessions", { token }));
    const other = await call("/auth/login", { body: { email: account.email, password: "another long password" } });
    const otherId = (await json(await call("/account/sessions", { token: (await json(other)).token }))).data.find(
      (s: { current: boolean }) => s.current,
    ).id;
    expect(sessions.length).toBe(1);
    expect((await call(`/account/sessions/${otherId}`, { method: "DELETE", token })).status).toBe(204);

    const list = await events(token);
    expect(list.map((e) => e.type)).toEqual([
      "session_ended",
      "signed_in",
      "password_changed",
      "signed_in",
      "signed_up",
    ]);
    expect(list[3]).toMatchObject({ type: "signed_in", device: UA, method: "password" });
    expect(list[4]).toMatchObject({ type: "signed_up", method: "password" });
    for (let i = 1; i < list.length; i++) expect(list[i - 1]!.at >= list[i]!.at).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/todo_sess_|passwordHash|token/);
  });

  it("lists each kind of event with its facts, the passkeys routes' too", async () => {
    const account = await signUpOverHttp("audit-totp");
    const db = createDb(env.DB);
    // The verbs' own records are tested where they run (totp.test.ts, email.test.ts); here, that each type
    // reaches the list with its facts.
    await db.batch([
      recordSecurityEvent(db, account.accountId, "totp_enabled"),
      recordSecurityEvent(db, account.accountId, "email_change_requested", { address: "new@example.com" }),
      recordSecurityEvent(db, account.accountId, "passkey_added", { device: UA, name: "Laptop" }),
    ]);
    const list = await events(account.session);
    expect(
      list
        .slice(0, 3)
        .map((e) => e.type)
        .sort(),
    ).toEqual(["email_change_requested", "passkey_added", "totp_enabled"]);
    expect(list.find((e) => e.type === "passkey_added")).toMatchObject({ device: UA, name: "Laptop" });
    expect(list.find((e) => e.type === "email_change_requested")).toMatchObject({ address: "new@example.com" });
  });

  it("is in the export, and events older than 90 days are purged by the daily job and never listed", async () => {
    const account = await signUpOverHttp("audit-export");
    await env.DB.prepare(
      "INSERT INTO security_events (id, account_id, type, at) VALUES (?, ?, 'password_changed', '2020-01-01T00:00:00.000Z')",
    )
      .bind(crypto.randomUUID(), account.accountId)
      .run();
    expect((await events(account.session)).map((e) => e.type)).toEqual(["signed_up"]);
    const exported = await json(await call("/account/export", { token: account.session }));
    expect(exported.securityEvents.map((e: { type: string }) => e.type)).toEqual(["signed_up"]);

    const purged = await purgeControlPlane(createDb(env.DB));
    expect(purged.securityEvents).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM security_events WHERE account_id = ?")
      .bind(account.accountId)
      .first<{ n: number }>();
    expect(left!.n).toBe(1);
  });

  it("needs a session", async () => {
    const res = await call("/account/security-events");
    expect(res.status).toBe(401);
  });
});
