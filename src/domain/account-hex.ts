/**
 * An account's id (a UUID) as the 32 lowercase hex digits that API keys and feed tokens carry, and back.
 * The id carries the account's data location (data-location.ts), so a credential does too.
 */
export const ACCOUNT_HEX_LENGTH = 32;

export const accountHex = (accountId: string) => accountId.replaceAll("-", "");

/** The id 32 hex digits spell, or undefined for anything else. */
export function accountIdOfHex(hex: string): string | undefined {
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
