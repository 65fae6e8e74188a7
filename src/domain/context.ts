/** Who is acting: the account an API key acts for, as its lookup found it. */
export interface Actor {
  accountId: string;
  /** The API key used, when the request came with one. */
  keyId?: string;
  /** Whether the account has an active Max membership right now. */
  maxActive: boolean;
  /** The account's IANA time zone; recurrences are computed in it. */
  timeZone: string;
}
