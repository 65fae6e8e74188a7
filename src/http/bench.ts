import type { OpenAPIHono } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { accountObject } from "../control/account-client";
import { AppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { PUBLIC, routesFor } from "./access";

export const BENCH_D1_PATH = "/_bench/d1";
export const BENCH_OBJECT_PATH = "/_bench/object";
/** The object the object floor calls. Not an account id (those are UUIDs), so no account's object is touched. */
export const BENCH_OBJECT_NAME = "bench-floor";

/**
 * Benchmark-only routes (`npm run bench`). They sit outside /api/v1 and are plain Hono routes,
 * so they never appear in the OpenAPI document, and they answer 404 unless BENCH_ROUTES is "on":
 * that switch, not a credential, is their guard.
 */
export const createBenchApp = () => routesFor(PUBLIC, registerBenchRoutes);

function registerBenchRoutes(app: OpenAPIHono<AppEnv>) {
  // Baseline (b): the cost of the app stack plus exactly one trivial D1 round trip. With `?pad=N`
  // the body is padded to N bytes (at most 1 MB): (b) with the payload of a real route, which tells
  // a route's own work from the cost of moving its bytes.
  app.get(BENCH_D1_PATH, async (c) => {
    requireBenchRoutes(c.env, `GET ${c.req.path}`);
    const row = await c.var.db.get<{ one: number }>(sql`SELECT 1 AS one`);
    const body = JSON.stringify({ one: row.one });
    const pad = Math.min(Math.max(Number(c.req.query("pad")) || 0, 0), 1_000_000);
    const padded = pad > body.length + 10 ? `${body.slice(0, -1)},"pad":"${"x".repeat(pad - body.length - 9)}"}` : body;
    return c.body(padded, 200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  });

  // The object floor: the app stack plus one RPC to an account object that does nothing (`ping`), the
  // hop every task request makes, with no credential to judge and no SQL. Same body and headers as (b),
  // so a task row divided by this one is what the object's work adds to its hop.
  app.get(BENCH_OBJECT_PATH, async (c) => {
    requireBenchRoutes(c.env, `GET ${c.req.path}`);
    const one = await accountObject(c.env, BENCH_OBJECT_NAME).ping();
    return c.body(JSON.stringify({ one }), 200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  });

  // The write floor, a diagnostic row: exactly one trivial INSERT, one row on one page, through the
  // same stack. It tells what any D1 write costs locally (the transaction and its commit) from what a
  // task write adds. Its table exists only in the bench's throwaway D1 (scripts/bench.mjs creates it),
  // never in a migration, so this route cannot write to a real database even with BENCH_ROUTES on.
  app.post(BENCH_D1_PATH, async (c) => {
    requireBenchRoutes(c.env, `POST ${c.req.path}`);
    const written = await c.var.db
      .run(sql`INSERT INTO ${sql.identifier(BENCH_WRITES_TABLE)} (at) VALUES (${new Date().toISOString()})`)
      .catch((error: unknown) => {
        // Drizzle wraps the D1 error; its cause carries SQLite's message.
        if (`${error} ${(error as { cause?: unknown }).cause}`.includes("no such table")) {
          throw new AppError(
            "not_found",
            `The write baseline needs a \`${BENCH_WRITES_TABLE}\` table; npm run bench creates it in its throwaway D1.`,
          );
        }
        throw error;
      });
    return c.json({ written: written.meta.changes }, 200, { "Cache-Control": "no-store" });
  });
}

/** The one table the write baseline inserts into (see the POST route). */
export const BENCH_WRITES_TABLE = "bench_writes";

function requireBenchRoutes(env: AppEnv["Bindings"], route: string) {
  if (env.BENCH_ROUTES !== "on") throw new AppError("not_found", `No route for ${route}.`);
}
