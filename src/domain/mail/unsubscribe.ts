import { isCredentialMac, credentialMac, MAC_LENGTH } from "../credential-mac";

/**
 * The one-click "stop these emails" link (issue 36 item 7): `<origin>/email/unsubscribe?token=<account id>.<MAC>`,
 * the MAC keyed with CREDENTIAL_SECRET over the account's id (domain/credential-mac.ts, kind "unsubscribe"). It
 * needs no sign-in and never expires, so an old mail's link still works; all it can do is turn the account's
 * reminder emails off. Only this service can make one: a forged token is refused before any object call.
 */

const TOKEN = new RegExp(`^([0-9a-f-]{36})\\.([0-9A-Za-z]{${MAC_LENGTH}})$`);

export const unsubscribeToken = async (secret: string | undefined, accountId: string) =>
  `${accountId}.${await credentialMac(secret, "unsubscribe", accountId)}`;

export const unsubscribeUrl = async (secret: string | undefined, origin: string, accountId: string) =>
  `${origin}/email/unsubscribe?token=${await unsubscribeToken(secret, accountId)}`;

/** The account a token names, or null when it is malformed or its MAC is not this service's. */
export async function accountOfUnsubscribeToken(secret: string | undefined, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, accountId, mac] = match;
  return (await isCredentialMac(secret, mac!, "unsubscribe", accountId!)) ? accountId! : null;
}
