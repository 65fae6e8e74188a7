import type { Db } from "../db/client";

/** Who is acting. Every domain query is scoped by `accountId` inside the verb. */
export interface Actor {
  accountId: string;
  /** The API key used, when the request came with one. */
  keyId?: string;
  /** Whether the account has an active Max membership right now. */
  maxActive: boolean;
  /** The account's IANA time zone; recurrences are computed in it. */
  timeZone: string;
}

export interface ServiceContext {
  db: Db;
  actor: Actor;
}
