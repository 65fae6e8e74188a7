import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { json, uniqueEmail } from "../helpers";
import { SEED_PASSWORD } from "../support/seed";
import { mailbox, signUpWithMail } from "../support/mailbox";

/**
 * Mail through the EMAIL binding (stand-in at the binding's boundary: test/support/mailbox.ts): verification at
 * sign-up and on "send again", the change of address, and what happens when the deployment sends no mail.
 */
const accountOf = async (box: ReturnType<typeof mailbox>, session: string) =>
  json(await callWith(box.env, "/account", { token: session }));

describe("verification", () => {
  it("mails a single-use link at sign-up; the account is pending until it is used", async () => {
    const { box, email, session, account } = await signUpWithMail();
    expect(account.emailVerification).toBe("pending");
    const [mail] = box.to(email);
    expect(mail).toMatchObject({ from: "todo@mail.example.com", subject: "Confirm your email address" });
    expect(mail!.text).toContain(email);
    expect(mail!.text).toContain("If this was not you");
    expect(mail!.html).not.toMatch(/<img|<script/i);
    const token = box.tokenFor(email, "/verify");

    expect((await callWith(box.env, "/auth/verify", { body: { token }, ip: uniqueIp() })).status).toBe(204);
    expect((await accountOf(box, session)).emailVerification).toBe("verified");

    const again = await callWith(box.env, "/auth/verify", { body: { token }, ip: uniqueIp() });
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ code: "invalid_token" });
  });

  it("refuses a tampered, malformed or expired link with the same 400, never a 500", async () => {
    const { box, email } = await signUpWithMail();
    const token = box.tokenFor(email, "/verify");
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bad of [tampered, "todo_mail_short", "", "x".repeat(200)]) {
      const res = await callWith(box.env, "/auth/verify", { body: { token: bad }, ip: uniqueIp() });
      expect(res.status, bad).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    await env.DB.prepare("UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE address = ?")
      .bind(email)
      .run();
    const expired = await callWith(box.env, "/auth/verify", { body: { token }, ip: uniqueIp() });
    expect(await json(expired)).toMatchObject({ status: 400, code: "invalid_token" });
  });

  it("sends again at most once a minute, and the new link retires the old one", async () => {
    const { box, email, session } = await signUpWithMail();
    const first = box.tokenFor(email, "/verify");
    const soon = await callWith(box.env, "/auth/verify/resend", { method: "POST", token: session });
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(0);

    await env.DB.prepare(
      "UPDATE email_tokens SET created_at = '2000-01-01T00:00:00.000Z' WHERE address = ? AND purpose = 'verify'",
    )
      .bind(email)
      .run();
    const resent = await callWith(box.env, "/auth/verify/resend", { method: "POST", token: session });
    expect(resent.status).toBe(202);
    const second = box.tokenFor(email, "/verify");
    expect(second).not.toBe(first);
    expect((await callWith(box.env, "/auth/verify", { body: { token: first }, ip: uniqueIp() })).status).toBe(400);
    expect((await callWith(box.env, "/auth/verify", { body: { token: second }, ip: uniqueIp() })).status).toBe(204);
  });

  it("needs the session to send again", async () => {
    const box = mailbox();
    expect((await callWith(box.env, "/auth/verify/resend", { method: "POST" })).status).toBe(401);
  });
});

describe("changing the address", () => {
  it("mails a link to the new address and a notice to the old; the address changes only when the link is used", async () => {
    const { box, email, session } = await signUpWithMail();
    const newEmail = uniqueEmail("moved");
    const wrong = await callWith(box.env, "/account/email", {
      token: session,
      body: { email: newEmail, password: "not the password" },
    });
    expect(wrong.status).toBe(401);

    const res = await callWith(box.env, "/account/email", {
      token: session,
      body: { email: newEmail, password: SEED_PASSWORD },
    });
    expect(res.status).toBe(202);
    expect(box.to(email).at(-1)!.text).toContain(newEmail);
    expect((await accountOf(box, session)).email).toBe(email);

    const token = box.tokenFor(newEmail, "/verify");
    expect((await callWith(box.env, "/auth/verify", { body: { token }, ip: uniqueIp() })).status).toBe(204);
    const after = await accountOf(box, session);
    expect(after).toMatchObject({ email: newEmail, emailVerification: "verified" });
    const audit = await callWith(box.env, "/account/security-events", { token: session });
    expect((await audit.json<{ data: { type: string; address?: string }[] }>()).data.slice(0, 2)).toMatchObject([
      { type: "email_changed", address: newEmail },
      { type: "email_change_requested", address: newEmail },
    ]);
    const login = await callWith(box.env, "/auth/login", {
      body: { email: newEmail, password: SEED_PASSWORD },
      ip: uniqueIp(),
    });
    expect(login.status).toBe(200);
  });

  it("refuses an address another account has, and the account's own", async () => {
    const { box, email, session } = await signUpWithMail();
    const other = await signUpWithMail(box);
    const taken = await callWith(box.env, "/account/email", {
      token: session,
      body: { email: other.email, password: SEED_PASSWORD },
    });
    expect(taken.status).toBe(409);
    const same = await callWith(box.env, "/account/email", {
      token: session,
      body: { email, password: SEED_PASSWORD },
    });
    expect(same.status).toBe(400);
  });

  it("an old sign-up link no longer verifies once the address has changed", async () => {
    const { box, email, session } = await signUpWithMail();
    const signUpLink = box.tokenFor(email, "/verify");
    const newEmail = uniqueEmail("moved-again");
    await callWith(box.env, "/account/email", { token: session, body: { email: newEmail, password: SEED_PASSWORD } });
    expect(
      (await callWith(box.env, "/auth/verify", { body: { token: box.tokenFor(newEmail, "/verify") }, ip: uniqueIp() }))
        .status,
    ).toBe(204);
    expect((await callWith(box.env, "/auth/verify", { body: { token: signUpLink }, ip: uniqueIp() })).status).toBe(400);
  });
});

describe("without mail", () => {
  it("signs up as before, says verification is unavailable, and answers mail_off (501) where mail is needed", async () => {
    const off = { MAIL_FROM: "" } as Partial<Env>;
    const email = uniqueEmail("no-mail");
    const res = await callWith(off, "/auth/signup", { body: { email, password: SEED_PASSWORD }, ip: uniqueIp() });
    expect(res.status).toBe(201);
    const { token, account } = await json(res);
    expect(account.emailVerification).toBe("unavailable");
    for (const [path, body] of [
      ["/auth/verify/resend", undefined],
      ["/auth/password-reset", { email }],
      ["/account/email", { email: uniqueEmail("x"), password: SEED_PASSWORD }],
    ] as const) {
      const answer = await callWith(off, path, { method: "POST", token, body, ip: uniqueIp() });
      expect(answer.status, path).toBe(501);
      expect(await json(answer)).toMatchObject({ code: "mail_off" });
    }
  });

  it("signs up through workerd's own local EMAIL binding (as `wrangler dev` simulates it) without a crash", async () => {
    const res = await callWith({ MAIL_FROM: "todo@localhost.example" } as Partial<Env>, "/auth/signup", {
      body: { email: uniqueEmail("local-binding"), password: SEED_PASSWORD },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(201);
    expect((await json(res)).account.emailVerification).toBe("pending");
  });
});
