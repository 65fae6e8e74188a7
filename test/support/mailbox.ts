import { expect } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { json, uniqueEmail } from "../helpers";
import { SEED_PASSWORD } from "./seed";

/**
 * A stand-in for the Cloudflare Email Service binding (`EMAIL`), at the binding's boundary: the Worker calls
 * `env.EMAIL.send(message)` exactly as in production, and this records the message instead of delivering it.
 * Workerd's own local binding (what `wrangler dev` and the pool's default env use) writes mail to files a test in
 * workerd cannot read, so tests that read mail pass this in a patched env (test/hardening/support.ts `callWith`).
 */
export interface SentMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export function mailbox(from = "todo@mail.example.com") {
  const sent: SentMail[] = [];
  const EMAIL = {
    async send(message: SentMail) {
      sent.push(structuredClone(message));
      return { messageId: `stand-in-${sent.length}` };
    },
  } as unknown as SendEmail;
  const to = (address: string) => sent.filter((m) => m.to === address);
  return {
    sent,
    /** The env patch that turns mail on with this stand-in. */
    env: { EMAIL, MAIL_FROM: from } as Partial<Env>,
    to,
    /** The token of the last link to `path` (/verify, /reset) mailed to `address`; fails the test when none. */
    tokenFor(address: string, path: "/verify" | "/reset"): string {
      const mail = to(address).findLast((m) => m.text.includes(`${path}?token=`));
      expect(mail, `a ${path} link mailed to ${address}`).toBeDefined();
      const url = new URL(mail!.text.match(/https?:\/\/\S+/)![0]);
      expect(url.pathname).toBe(path);
      expect(mail!.html).toContain(url.href); // the same link in both parts
      return url.searchParams.get("token")!;
    },
  };
}

/** A real sign-up over HTTP with mail on: the account, its session, and the mailbox its mail went to. */
export async function signUpWithMail(box = mailbox()) {
  const email = uniqueEmail("mail");
  const res = await callWith(box.env, "/auth/signup", { body: { email, password: SEED_PASSWORD }, ip: uniqueIp() });
  expect(res.status).toBe(201);
  const data = await json(res);
  return { box, email, session: data.token as string, accountId: data.account.id as string, account: data.account };
}
