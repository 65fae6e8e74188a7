import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { accountSql, call, createTask, json, maxUser } from "../helpers";
import { mailbox, type SentMail } from "../support/mailbox";
import { alarmWith } from "./support";

/**
 * Reminders by email (issue 36 item 7), through the EMAIL binding's stand-in (test/support/mailbox.ts): the Worker
 * gets it per request (`callWith`), and the account object's alarm gets it for one run (`alarmWith`), since the
 * object reads `this.env`. Without the stand-in the pool's env has no MAIL_FROM: mail is off.
 */

const verify = (accountId: string) =>
  env.DB.prepare("UPDATE accounts SET email_verified_at = '2026-01-01T00:00:00.000Z' WHERE id = ?")
    .bind(accountId)
    .run();

async function mailUser({ verified = true } = {}) {
  const user = await maxUser("mailrem");
  if (verified) await verify(user.accountId);
  const box = mailbox();
  const put = (body: object, patch = box.env) =>
    callWith(patch, "/account/notifications", { method: "PUT", token: user.session, body, ip: uniqueIp() });
  const get = async (patch = box.env) =>
    json(await callWith(patch, "/account/notifications", { token: user.session, ip: uniqueIp() }));
  return { user, box, put, get };
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const unsubscribeLink = (mail: SentMail) => {
  const header = mail.headers?.["List-Unsubscribe"];
  expect(header).toMatch(/^<https?:\/\/\S+>$/);
  return new URL(header!.slice(1, -1));
};

describe("reminders by email: the choice", () => {
  it("is off by default, turns on and off, for a verified address only", async () => {
    const { put, get } = await mailUser();
    expect(await get()).toEqual({
      emailReminders: false,
      dailyDigest: { enabled: false, time: null },
      unavailable: null,
    });
    const on = await put({ emailReminders: true });
    expect(on.status).toBe(200);
    expect(await json(on)).toMatchObject({ emailReminders: true });
    expect((await get()).emailReminders).toBe(true);
    expect(await json(await put({ emailReminders: false }))).toMatchObject({ emailReminders: false });

    const unverified = await mailUser({ verified: false });
    expect((await unverified.get()).unavailable).toBe("email_unverified");
    const refused = await unverified.put({ emailReminders: true });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ code: "email_unverified" });
    const digestRefused = await unverified.put({
      emailReminders: false,
      dailyDigest: { enabled: true, time: "07:30" },
    });
    expect(digestRefused.status).toBe(403);
    // Turning it off needs nothing.
    expect((await unverified.put({ emailReminders: false })).status).toBe(200);
  });

  it("answers 501 mail_off where the deployment sends no mail, and 400 for a bad time", async () => {
    const { put, get, box } = await mailUser();
    const off = await put({ emailReminders: true }, {});
    expect(off.status).toBe(501);
    expect(await json(off)).toMatchObject({ code: "mail_off" });
    expect((await get({})).unavailable).toBe("mail_off");
    const bad = await put({ emailReminders: true, dailyDigest: { enabled: true, time: "25:00" } }, box.env);
    expect(bad.status).toBe(400);
    expect((await call("/account/notifications")).status).toBe(401);
  });
});

describe("reminders by email: sending", () => {
  it("mails a reminder once, across alarm retries and a failed first send", async () => {
    const { user, box, put } = await mailUser();
    expect((await put({ emailReminders: true })).status).toBe(200);
    const reminder = inSeconds(60);
    const task = await createTask(user.key, { title: "Water the plants", reminder });
    const at = Date.parse(reminder);

    // The first send fails: it is kept and retried, not lost and not doubled.
    let failing = true;
    const flaky = {
      ...box.env,
      EMAIL: {
        send: async (m: SentMail) => {
          if (failing) throw new Error("mail service down");
          return (box.env.EMAIL as unknown as { send: (m: SentMail) => Promise<unknown> }).send(m);
        },
      } as unknown as SendEmail,
    };
    await alarmWith(user.accountId, at, flaky);
    expect(box.sent).toHaveLength(0);
    expect(await accountSql(user.accountId, "SELECT attempts FROM mail_outbox")).toEqual([{ attempts: 1 }]);
    failing = false;
    await alarmWith(user.accountId, at + 30_000, flaky); // before the retry's time: nothing
    expect(box.sent).toHaveLength(0);
    await alarmWith(user.accountId, at + 61_000, flaky);
    await alarmWith(user.accountId, at + 61_000, flaky); // the alarm again (a retry)
    await alarmWith(user.accountId, at + 3_600_000, box.env);
    expect(box.sent).toHaveLength(1);
    const [mail] = box.sent;
    expect(mail).toMatchObject({ to: user.email, subject: "Reminder: Water the plants" });
    expect(mail!.text).toContain("Water the plants");
    expect(mail!.text).toContain(user.email);
    expect(mail!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(mail!.text).toContain(unsubscribeLink(mail!).href);
    expect(mail!.html).not.toMatch(/<img|<script/i);
    expect(await accountSql(user.accountId, "SELECT * FROM mail_outbox")).toEqual([]);
    expect(task.id).toBeTruthy();
  });

  it("sends nothing when the choice is off, or mail is off, and the alarm still runs", async () => {
    const { user, box, put } = await mailUser();
    const first = Date.parse(inSeconds(60));
    await createTask(user.key, { title: "Off", reminder: new Date(first).toISOString() });
    await alarmWith(user.accountId, first, box.env);
    expect(box.sent).toHaveLength(0);

    expect((await put({ emailReminders: true, dailyDigest: { enabled: true, time: "09:00" } })).status).toBe(200);
    const second = Date.parse(inSeconds(120));
    await createTask(user.key, { title: "Mail off", reminder: new Date(second).toISOString(), due: "2020-01-01" });
    // The pool's own env: no MAIL_FROM, so mail is off. Nothing is queued or sent, nothing throws.
    await alarmWith(user.accountId, second + 2 * 86_400_000);
    expect(box.sent).toHaveLength(0);
    expect(await accountSql(user.accountId, "SELECT * FROM mail_outbox")).toEqual([]);
    expect(await accountSql(user.accountId, "SELECT * FROM reminders")).toEqual([]);
  });

  it("follows a confirmed change of address", async () => {
    const { user, box, put } = await mailUser();
    expect((await put({ emailReminders: true })).status).toBe(200);
    const newEmail = `moved-${crypto.randomUUID()}@example.com`;
    const asked = await callWith(box.env, "/account/email", {
      token: user.session,
      body: { email: newEmail, password: user.password },
      ip: uniqueIp(),
    });
    expect(asked.status).toBe(202);
    const token = box.tokenFor(newEmail, "/verify");
    expect((await callWith(box.env, "/auth/verify", { body: { token }, ip: uniqueIp() })).status).toBe(204);
    const reminder = Date.parse(inSeconds(60));
    await createTask(user.key, { title: "After the move", reminder: new Date(reminder).toISOString() });
    await alarmWith(user.accountId, reminder, box.env);
    expect(box.sent.filter((m) => m.subject.startsWith("Reminder")).map((m) => m.to)).toEqual([newEmail]);
  });
});

describe("the daily digest", () => {
  it("mails due today and overdue at its local time, once a day, in the account's time zone", async () => {
    const { user, box, put } = await mailUser();
    expect(
      (await call("/account", { method: "PATCH", token: user.session, body: { timeZone: "Asia/Tokyo" } })).status,
    ).toBe(200);
    expect(
      await json(await put({ emailReminders: false, dailyDigest: { enabled: true, time: "07:30" } })),
    ).toMatchObject({
      emailReminders: false,
      dailyDigest: { enabled: true, time: "07:30" },
    });
    const { next } = (
      await accountSql<{ next: number }>(user.accountId, "SELECT digest_next_at AS next FROM mail_settings")
    )[0]!;
    // 07:30 in Tokyo is 22:30 UTC the day before.
    expect(new Date(next).toISOString().slice(11, 16)).toBe("22:30");
    const localDate = new Date(next + 9 * 3_600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(next + 33 * 3_600_000).toISOString().slice(0, 10);
    await createTask(user.key, { title: "Overdue one", due: "2020-01-01" });
    await createTask(user.key, { title: "Due that day", due: localDate });
    await createTask(user.key, { title: "Not yet", due: tomorrow });
    await createTask(user.key, { title: "No date" });

    await alarmWith(user.accountId, next - 60_000, box.env);
    expect(box.sent).toHaveLength(0);
    await alarmWith(user.accountId, next, box.env);
    await alarmWith(user.accountId, next + 1000, box.env); // a retry that day sends no second
    expect(box.sent).toHaveLength(1);
    const [digest] = box.sent;
    expect(digest!.subject).toBe("Due today and overdue: 2 tasks");
    expect(digest!.text).toContain("Overdue one");
    expect(digest!.text).toContain("Due that day");
    expect(digest!.text).not.toContain("Not yet");
    expect(digest!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // The next day's, at the same local time.
    const { next: after } = (
      await accountSql<{ next: number }>(user.accountId, "SELECT digest_next_at AS next FROM mail_settings")
    )[0]!;
    expect(after).toBe(next + 86_400_000);

    // A new time zone moves it to 07:30 there.
    expect(
      (await call("/account", { method: "PATCH", token: user.session, body: { timeZone: "America/New_York" } })).status,
    ).toBe(200);
    const { next: moved } = (
      await accountSql<{ next: number }>(user.accountId, "SELECT digest_next_at AS next FROM mail_settings")
    )[0]!;
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: "America/New_York",
      hour: "2-digit",
      minute: "2-digit",
    });
    expect(local.format(moved)).toBe("07:30");
    expect(moved).toBeGreaterThan(Date.now());
  });
});

describe("the one-click unsubscribe link", () => {
  it("shows a page on GET, turns the emails off on POST, all without signing in", async () => {
    const { user, box, put, get } = await mailUser();
    await put({ emailReminders: true, dailyDigest: { enabled: true, time: "08:00" } });
    const reminder = Date.parse(inSeconds(60));
    await createTask(user.key, { title: "Stop me", reminder: new Date(reminder).toISOString() });
    await alarmWith(user.accountId, reminder, box.env);
    const link = unsubscribeLink(box.sent[0]!);
    const path = `${link.pathname}${link.search}`;
    expect(link.pathname).toBe("/email/unsubscribe");

    const page = await call(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const text = await page.text();
    expect(text).toContain('method="post"');
    expect((await get()).emailReminders).toBe(true); // GET changes nothing

    // A mail client's RFC 8058 one-click POST: form body, no cookie, no session, a foreign Origin.
    const oneClick = await call(path, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example.net" },
    });
    expect(oneClick.status).toBe(200);
    expect(await get()).toMatchObject({ emailReminders: false, dailyDigest: { enabled: false, time: null } });
  });

  it("refuses a forged or tampered token with a 400, changing nothing", async () => {
    const { user, box, put, get } = await mailUser();
    await put({ emailReminders: true });
    const token = `${user.accountId}.${"A".repeat(22)}`;
    for (const bad of [token, "nonsense", `${user.accountId}.`, ""]) {
      for (const method of ["GET", "POST"]) {
        const res = await call(`/email/unsubscribe?token=${encodeURIComponent(bad)}`, { method });
        expect(res.status, `${method} ${bad}`).toBe(400);
        expect(res.headers.get("content-type")).toContain("application/problem+json");
      }
    }
    expect((await get(box.env)).emailReminders).toBe(true);
  });
});
