import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { errorCodes } from "../../src/domain/errors";
import worker from "../../src";
import { BASE, type CallOptions } from "../helpers";
import { rateWindow } from "../support/rate-window";

/**
 * The real Worker (src/index.ts) called with a patched env: rate limits on (the suite's
 * default is off, see vitest.config.ts), a D1 that fails on demand, or account objects that cannot
 * be reached.
 */
export async function callWith(
  patch: Partial<Env>,
  path: string,
  options: CallOptions & { ip?: string } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.ip) headers.set("CF-Connecting-IP", options.ip);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  const request = new Request(`${BASE}${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...patch } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** Rate limits on, with wrangler.toml's quotas in a window of the test's own (test/support/rate-window.ts). */
export const limited = (path: string, options: CallOptions & { ip?: string } = {}) =>
  callWith({ RATE_LIMITS: "on", ...rateWindow() }, path, options);

/** Rate limits on, counted by the runtime's own [[ratelimits]] bindings (windows aligned to the clock). */
export const limitedByRuntime = (path: string, options: CallOptions & { ip?: string } = {}) =>
  callWith({ RATE_LIMITS: "on" }, path, options);

/** A client IP no other test uses (random in 2001:db8::/32), so tests never share a rate-limit bucket. */
export const uniqueIp = () =>
  `2001:db8:${[...crypto.getRandomValues(new Uint16Array(6))].map((n) => n.toString(16)).join(":")}`;

/**
 * The runtime's windows, and the RateLimit header's count (src/http/rate-limit.ts), are aligned to the
 * clock. A test that must stay inside one of them waits for a fresh one when fewer than `needed` seconds
 * are left in the current one; tests that count only refusals use `limited`, which needs no wait.
 */
export async function atWindowStart(needed: number, window = 60) {
  const left = window - ((Date.now() / 1000) % window);
  if (left < needed) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}

export const PROBLEM_CODES: ReadonlySet<string> = new Set(errorCodes);

/** How the wrapped D1 misbehaves; change the fields between requests. */
export interface FaultPlan {
  /** Statements whose SQL this matches throw `message` instead of running. */
  failWhen?: (sql: string) => boolean;
  /** Batches with at least this many statements get statement number `batchFailAt` (0-based) replaced by one that fails inside D1. */
  batchFailAt?: number;
  message?: string;
  /** Counts what reached the fault. */
  injected: number;
}

const INJECTED_SQL = "INSERT INTO __injected_fault__ VALUES (1)";

/**
 * A D1 binding that fails on demand. `failWhen` throws before the statement reaches D1, with
 * the messages D1 uses in production; `batchFailAt` makes the real D1 run a batch whose k-th
 * statement fails, so the test observes D1's own rollback of the statements before it.
 */
export function faultyD1(real: D1Database, plan: FaultPlan): D1Database {
  const check = (sql: string) => {
    if (plan.failWhen?.(sql)) {
      plan.injected++;
      throw new Error(plan.message ?? "D1_ERROR: Network connection lost.");
    }
  };
  /** Runs `f` unless the plan says this statement fails. */
  const guarded = <T>(sql: string, f: () => Promise<T>): Promise<T> => {
    check(sql);
    return f();
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    Object.assign(Object.create(null), {
      inner: statement,
      sql,
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) =>
        guarded(sql, () => (column === undefined ? statement.first() : statement.first(column))),
      all: () => guarded(sql, () => statement.all()),
      run: () => guarded(sql, () => statement.run()),
      raw: (options?: { columnNames?: boolean }) => guarded(sql, () => statement.raw(options as { columnNames: true })),
    }) as D1PreparedStatement;
  const unwrap = (s: D1PreparedStatement) => (s as unknown as { inner?: D1PreparedStatement }).inner ?? s;
  const sqlOf = (s: D1PreparedStatement) => (s as unknown as { sql?: string }).sql ?? "";
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: async (statements: D1PreparedStatement[]) => {
      for (const s of statements) check(sqlOf(s));
      const inner = statements.map(unwrap);
      if (plan.batchFailAt !== undefined && plan.batchFailAt < inner.length) {
        plan.injected++;
        inner[plan.batchFailAt] = real.prepare(INJECTED_SQL);
      }
      return real.batch(inner);
    },
    exec: (sql: string) => guarded(sql, () => real.exec(sql)),
    dump: () => real.dump(),
    withSession: () => {
      throw new Error("withSession is not used by the app");
    },
  } as unknown as D1Database;
}

/** The real Worker with a faulty D1 and rate limits as in the suite (off). */
export const withFaults =
  (plan: FaultPlan) =>
  (path: string, options: CallOptions = {}) =>
    callWith({ DB: faultyD1(env.DB, plan) }, path, options);

/**
 * What workerd throws at a caller when an account's Durable Object cannot answer: a dropped
 * connection, overload, a reset (a deploy, a storage timeout or fault), a transient placement issue.
 * A retry can succeed, so each is a 503 with Retry-After.
 */
export const OBJECT_OUTAGES = [
  "Network connection lost.",
  "Durable Object is overloaded. Too many requests queued.",
  "Durable Object is overloaded. Requests queued for too long.",
  "Durable Object reset because its code was updated.",
  "Durable Object storage operation exceeded timeout which caused object to be reset.",
  "Internal error in Durable Object storage caused object to be reset.",
  "Cannot resolve Durable Object due to transient issue on remote node.",
];

/** An ACCOUNTS namespace whose stubs reject every call with `message`, as workerd's do when the object is out of reach. */
export function unreachableAccounts(
  real: Env["ACCOUNTS"],
  plan: { message: string; injected: number },
): Env["ACCOUNTS"] {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "get") {
        return (id: DurableObjectId) =>
          new Proxy(target.get(id), {
            get(stub, method) {
              const value = Reflect.get(stub, method);
              if (typeof value !== "function") return value;
              return () => {
                plan.injected++;
                return Promise.reject(new Error(plan.message));
              };
            },
          });
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** How an account object's own SQLite misbehaves, from inside the object (faultyObjectSql). */
export interface SqlFaultPlan {
  /** Statements whose SQL this matches throw `message` instead of running. */
  failWhen?: (sql: string) => boolean;
  /** The write statement (INSERT, UPDATE, DELETE; 0-based, counted from installation) that throws instead. */
  failAtWrite?: number;
  message?: string;
  /** Write statements that reached the object's SQLite (or the fault). */
  writes: number;
  /** Counts what reached the fault. */
  injected: number;
}

const isWrite = (sql: string) => /^\s*(insert|update|delete)\b/i.test(sql);

/**
 * Runs `f` while the account object's SQLite fails as `plan` says: its `sql.exec` is wrapped inside
 * the object, so the fault strikes in the middle of the request's transaction (which must roll back
 * every write before it) and the object's own error handling answers. Restored afterwards.
 */
export async function withFaultyObjectSql<T>(accountId: string, plan: SqlFaultPlan, f: () => Promise<T>): Promise<T> {
  const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId));
  await runInDurableObject(stub, (_instance, state) => {
    const storage = state.storage.sql;
    const exec = storage.exec;
    Object.defineProperty(storage, "exec", {
      configurable: true,
      value(query: string, ...params: SqlStorageValue[]) {
        const write = isWrite(query);
        const fails = plan.failWhen?.(query) || (write && plan.writes === plan.failAtWrite);
        if (write) plan.writes++;
        if (fails) {
          plan.injected++;
          throw new Error(plan.message ?? "Internal error in Durable Object storage caused object to be reset.");
        }
        return exec.call(storage, query, ...params);
      },
    });
  });
  try {
    return await f();
  } finally {
    await runInDurableObject(stub, (_instance, state) => {
      delete (state.storage.sql as { exec?: unknown }).exec;
    });
  }
}
