import { getTableColumns, is, Placeholder, SQL, sql, type Table } from "drizzle-orm";

type Values<T extends Table> = { [K in keyof T["_"]["columns"]]?: unknown };

/**
 * A new row of `table` as a SELECT list in the table's column order, which is the order Drizzle's
 * insert…select writes: each column takes its value from `values` (a JS value, encoded by the column,
 * a placeholder or SQL), or its declared default, or NULL. No insert names its columns by position.
 */
export function selectRow<T extends Table>(table: T, values: Values<T>): SQL {
  const columns = getTableColumns(table);
  return sql.join(
    Object.entries(columns).map(([key, column]) => {
      const value = (values as Record<string, unknown>)[key];
      if (value !== undefined) {
        return is(value, Placeholder) || is(value, SQL) ? sql`${value}` : sql.param(value, column);
      }
      // A declared default: SQL (the clock) as it is, a constant inline, never a bare parameter (compiled.ts).
      const fallback = column.default;
      if (fallback === undefined) return sql`NULL`;
      if (is(fallback, SQL)) return fallback;
      const constant = column.mapToDriverValue(fallback);
      if (typeof constant !== "number") throw new Error(`Declare ${key}'s default as SQL or a number.`);
      return sql.raw(String(constant));
    }),
    sql`, `,
  );
}
