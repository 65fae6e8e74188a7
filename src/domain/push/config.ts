/**
 * Web Push is on when the deployment has its VAPID key pair (RFC 8292) and a contact: `VAPID_PUBLIC_KEY` (the raw
 * 65-byte P-256 point, base64url, as the Web Push ecosystem writes it), the secret `VAPID_PRIVATE_KEY` (the raw
 * 32-byte scalar, base64url) and `VAPID_SUBJECT` (a `mailto:` or https URL a push service may write to). Without
 * them, or with one malformed, push is off: the public key is null, the page hides its offer, storing a device
 * answers 501 `push_off`, and nothing is queued. docs/deploy.md says how to make the pair.
 */
export type PushEnv = Partial<Pick<Env, "VAPID_PUBLIC_KEY" | "VAPID_SUBJECT">> & { VAPID_PRIVATE_KEY?: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The byte length of a base64url value without padding, or -1 when it is not base64url. */
function decodedLength(value: string): number {
  if (!BASE64URL.test(value) || value.length % 4 === 1) return -1;
  return Math.floor((value.length * 3) / 4);
}

/** The pair and subject, as the push library takes them (its `VapidKeys`, every field set). */
export interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function vapidOf(env: PushEnv): Vapid | null {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? "";
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? "";
  const subject = env.VAPID_SUBJECT?.trim() ?? "";
  if (!publicKey && !privateKey && !subject) return null;
  const valid =
    decodedLength(publicKey) === 65 &&
    publicKey.startsWith("B") && // 0x04, an uncompressed point, is "B" in base64url
    decodedLength(privateKey) === 32 &&
    /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject);
  if (!valid) {
    // Half a configuration is an operator's mistake, not a user's: said once per isolate in the log, and push stays off.
    warnOnce();
    return null;
  }
  return { publicKey, privateKey, subject };
}

export const pushOn = (env: PushEnv): boolean => vapidOf(env) !== null;

let warned = false;
function warnOnce() {
  if (warned) return;
  warned = true;
  console.error(
    "Web Push is off: VAPID_PUBLIC_KEY (65 bytes), VAPID_PRIVATE_KEY (32 bytes), both base64url, and VAPID_SUBJECT (mailto: or https:) must all be set (docs/deploy.md).",
  );
}
