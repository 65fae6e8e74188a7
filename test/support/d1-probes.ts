import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";

/**
 * A D1 binding that counts round trips (each batch() and each statement run alone is one) and
 * statements, and records the SQL text of every statement it prepares: the one probe of the round-trip
 * and query-plan tests.
 */
export function probedD1(real: D1Database) {
  const counter = { trips: 0, statements: 0 };
  const texts = new Set<string>();
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(target.bind(...args));
        if (["first", "all", "run", "raw"].includes(String(prop))) {
          return (...args: unknown[]) => {
            counter.trips++;
            counter.statements++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          texts.add(sql);
          return wrapStatement(target.prepare(sql));
        };
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counter.trips++;
          counter.statements += statements.length;
          // The real binding needs its own statement objects, not our proxies.
          return target.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, counter, texts };
}

/** One REST request through a probed binding: its status, body, round trips, statements and SQL texts. */
export async function probe(path: string, key: string, init: { method?: string; body?: unknown } = {}) {
  const { db, counter, texts } = probedD1(env.DB);
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://example.com${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await createApp().fetch(request, { ...env, DB: db }, ctx);
  const body = res.status === 204 ? null : await res.json<any>();
  const { trips, statements } = counter;
  await waitOnExecutionContext(ctx);
  return { status: res.status, body, trips, statements, texts: [...texts] };
}

/** SQLite's plan for a statement, one detail line per step (parameters left NULL: plans do not depend on them). */
export async function planOf(sql: string): Promise<string[]> {
  const parameters = (sql.match(/\?/g) ?? []).map(() => null);
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...parameters)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

/**
 * An ACCOUNTS namespace that counts the calls made to account objects through its stubs (each RPC
 * method call is one hop from the Worker to an object), by method name.
 */
export function probedAccounts(real: Env["ACCOUNTS"]) {
  const calls: string[] = [];
  const namespace = new Proxy(real, {
    get(target, prop) {
      if (prop === "get") {
        return (id: DurableObjectId) => {
          const stub = target.get(id);
          return new Proxy(stub, {
            get(stubTarget, method) {
              const value = Reflect.get(stubTarget, method);
              if (typeof value !== "function") return value;
              return (...args: unknown[]) => {
                calls.push(String(method));
                return Reflect.apply(value as (...a: unknown[]) => unknown, stubTarget, args);
              };
            },
          });
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { namespace, calls };
}
