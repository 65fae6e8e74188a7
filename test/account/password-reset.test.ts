import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { json, uniqueEmail } from "../helpers";
import { type mailbox, signUpWithMail } from "../support/mailbox";
import { SEED_PASSWORD, seedKey, seedMax } from "../support/seed";

/** Password reset by a mailed link (mail through a stand-in of the EMAIL binding: test/support/mailbox.ts). */
const NEW_PASSWORD = "a brand new password";
const reset = (box: ReturnType<typeof mailbox>, email: string, patch: Partial<Env> = {}) =>
  callWith({ ...box.env, ...patch }, "/auth/password-reset", { body: { email }, ip: uniqueIp() });
const confirm = (box: ReturnType<typeof mailbox>, token: string, newPassword = NEW_PASSWORD) =>
  callWith(box.env, "/auth/password-reset/confirm", { body: { token, newPassword }, ip: uniqueIp() });
const logIn = (email: string, password: string) =>
  callWith({}, "/auth/login", { body: { email, password }, ip: uniqueIp() });

describe("POST /auth/password-reset", () => {
  it("answers the same 202 for an address with and without an account, and mails only the first", async () => {
    const { box, email } = await signUpWithMail();
    const stranger = uniqueEmail("nobody");
    const known = await reset(box, email);
    const unknown = await reset(box, stranger);
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.text()).toBe(await unknown.text());
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    expect(box.to(email).at(-1)!.subject).toBe("Reset your password");
    expect(box.to(stranger)).toEqual([]);
  });

  it("answers before the link is written or mailed: the answer never waits for work only a real address causes", async () => {
    const { box, email } = await signUpWithMail();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = { inserts: 0 };
    // A D1 whose insert of the reset link waits until the test opens the gate.
    const DB = new Proxy(env.DB, {
      get(target, prop) {
        if (prop !== "prepare") return Reflect.get(target, prop, target).bind?.(target) ?? Reflect.get(target, prop);
        return (sql: string) => {
          const statement = target.prepare(sql);
          if (!/insert into "?email_tokens/i.test(sql)) return statement;
          return new Proxy(statement, {
            get(inner, name) {
              const value = Reflect.get(inner, name, inner);
              if (name === "bind")
                return (...args: unknown[]) => {
                  const bound = inner.bind(...args);
                  return new Proxy(bound, {
                    get(b, n) {
                      const v = Reflect.get(b, n, b);
                      if (!["run", "all", "raw", "first"].includes(String(n)))
                        return typeof v === "function" ? v.bind(b) : v;
                      return async (...a: unknown[]) => {
                        held.inserts++;
                        await gate;
                        return (v as (...x: unknown[]) => unknown).apply(b, a);
                      };
                    },
                  });
                };
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      },
    });
    const ctx = createExecutionContext();
    const request = new Request("http://example.com/auth/password-reset", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": uniqueIp() },
      body: JSON.stringify({ email }),
    });
    const res = await createApp().fetch(request, { ...env, ...box.env, DB }, ctx);
    expect(res.status).toBe(202);
    expect(box.to(email).filter((m) => m.subject === "Reset your password")).toHaveLength(0);
    open();
    await waitOnExecutionContext(ctx);
    expect(held.inserts).toBe(1);
    expect(box.to(email).at(-1)!.subject).toBe("Reset your password");
  });

  it("sends one link a minute per account at most, whatever the requests", async () => {
    const { box, email } = await signUpWithMail();
    await reset(box, email);
    await reset(box, email);
    expect(box.to(email).filter((m) => m.subject === "Reset your password")).toHaveLength(1);
  });
});

describe("POST /auth/password-reset/confirm", () => {
  it("sets the password, ends every session and OAuth connection, keeps API keys, and mails a notice", async () => {
    const { box, email, session, accountId } = await signUpWithMail();
    await seedMax(email);
    const { key } = await seedKey(accountId);
    await reset(box, email);
    const token = box.tokenFor(email, "/reset");

    expect((await confirm(box, token)).status).toBe(204);
    expect((await callWith(box.env, "/account", { token: session })).status).toBe(401);
    expect((await logIn(email, SEED_PASSWORD)).status).toBe(401);
    const signedIn = await logIn(email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    const audit = await callWith({}, "/account/security-events", { token: (await json(signedIn)).token });
    expect((await json(audit)).data.slice(0, 2)).toMatchObject([{ type: "signed_in" }, { type: "password_reset" }]);
    expect((await callWith({}, "/api/v1/tasks", { token: key })).status).toBe(200);
    expect(box.to(email).at(-1)).toMatchObject({ subject: "Your password was reset" });

    const reused = await confirm(box, token, "yet another password");
    expect(reused.status).toBe(400);
    expect(await json(reused)).toMatchObject({ code: "invalid_token" });
  });

  it("refuses an expired, tampered or foreign token with 400, and a short password with the sign-up rule", async () => {
    const { box, email } = await signUpWithMail();
    await reset(box, email);
    const token = box.tokenFor(email, "/reset");
    expect((await confirm(box, token, "short")).status).toBe(400);
    expect((await confirm(box, `${token.slice(0, -2)}zz`)).status).toBe(400);
    // A verification link is not a reset link.
    expect((await confirm(box, box.tokenFor(email, "/verify"))).status).toBe(400);
    await env.DB.prepare(
      "UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE purpose = 'reset' AND address = ?",
    )
      .bind(email)
      .run();
    const expired = await confirm(box, token);
    expect(expired.status).toBe(400);
    expect(await json(expired)).toMatchObject({ code: "invalid_token" });
    expect((await logIn(email, SEED_PASSWORD)).status).toBe(200);
  });
});
