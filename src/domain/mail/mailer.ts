/**
 * Outbound mail through Cloudflare Email Service: the Worker's own `send_email` binding (`EMAIL`), from the
 * address in `MAIL_FROM`. Without either, mail is off: sign-up still works, and what needs mail says so
 * (`mail_off`). Under `wrangler dev` the binding is simulated and logs each mail; tests put a stand-in for the
 * binding in env (test/support/mailbox.ts).
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

type MailEnv = Pick<Env, "MAIL_FROM"> & { EMAIL?: SendEmail };

export const mailOn = (env: MailEnv): boolean => Boolean(env.EMAIL && env.MAIL_FROM);

/**
 * Sends one mail; false when mail is off. A failed send is logged (never its body: it carries one-time links)
 * and reported as false, because the request that caused it (a sign-up, a reset) has already been answered.
 */
export async function sendMail(env: MailEnv, mail: Mail): Promise<boolean> {
  if (!env.EMAIL || !env.MAIL_FROM) return false;
  try {
    await env.EMAIL.send({ from: env.MAIL_FROM, ...mail });
    return true;
  } catch (e) {
    console.error("mail not sent", { subject: mail.subject, error: String((e as Error)?.message ?? e) });
    return false;
  }
}
