import { sql } from "drizzle-orm";

/**
 * Every timestamp is RFC 3339 UTC text with milliseconds, written by the database clock
 * (`nowSql`), so ordering by text is ordering by time and `since` comparisons are exact.
 */
export const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
