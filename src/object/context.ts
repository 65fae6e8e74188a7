import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type * as schema from "./schema";

/** An account's SQLite, inside its Durable Object (src/object/account-object.ts), with the storage it runs on. */
export type AccountDb = DrizzleSqliteDODatabase<typeof schema> & { $client: DurableObjectStorage };

/**
 * What a domain verb runs with: the account's own database, inside the object's transaction, and the
 * account's time zone. The object is the account, so a verb needs no account id. A verb is
 * synchronous: SQLite is in the same process, so a query costs microseconds and a verb reads and
 * writes as plainly as it needs.
 */
export interface AccountContext {
  db: AccountDb;
  /** The account's IANA time zone; recurrences and "today" are computed in it. */
  timeZone: string;
}
