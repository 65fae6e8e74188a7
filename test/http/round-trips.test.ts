import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call, createKey, createTask, json, maxUser, signUp } from "../helpers";

/** A D1 binding that counts round trips: each batch() and each executed statement is one. */
function countingD1(real: D1Database) {
  const counter = { trips: 0 };
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(target.bind(...args));
        if (["first", "all", "run", "raw"].includes(String(prop))) {
          return (...args: unknown[]) => {
            counter.trips++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counter.trips++;
          // The real binding needs its own statement objects, not our proxies.
          return target.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, counter };
}

async function tripsOf(path: string, key: string): Promise<{ status: number; trips: number; body: any }> {
  const { db, counter } = countingD1(env.DB);
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`http://example.com${path}`, { headers: { authorization: `Bearer ${key}` } }),
    { ...env, DB: db },
    ctx,
  );
  const body = await res.json();
  const trips = counter.trips;
  await waitOnExecutionContext(ctx);
  return { status: res.status, trips, body };
}

describe("GET /api/v1/tasks in one D1 round trip", () => {
  it("authenticates, checks Max and lists in a single round trip", async () => {
    const user = await maxUser();
    await createTask(user.key, { title: "a" });
    await createTask(user.key, { title: "b" });
    // Let the first request's lastUsedAt refresh settle, so only the listing is counted.
    await call("/api/v1/tasks", { token: user.key });
    const listed = await tripsOf("/api/v1/tasks", user.key);
    expect(listed.status).toBe(200);
    expect(listed.body.meta.count).toBe(2);
    expect(listed.trips).toBe(1);
    const delta = await tripsOf(`/api/v1/tasks?since=${encodeURIComponent(listed.body.meta.serverTime)}&limit=1`, user.key);
    expect(delta.status).toBe(200);
    expect(delta.trips).toBe(1);
  });

  it("still refuses a dead key (401) and a free key (403) in that one round trip", async () => {
    const user = await maxUser();
    await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session });
    const revoked = await tripsOf("/api/v1/tasks", user.key);
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe("unauthorized");
    expect(revoked.trips).toBe(1);
    const free = await signUp("free");
    const { key } = await createKey(free.session);
    const refused = await tripsOf("/api/v1/tasks", key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("max_required");
  });

  it("judges credentials before the query: a bad `since` is 401 for a dead key, 403 without Max, 400 with Max", async () => {
    const user = await maxUser();
    const bad = "/api/v1/tasks?since=not-a-date";
    const free = await signUp("free");
    const { key: freeKey } = await createKey(free.session);
    const anotherFreeKey = (await createKey((await signUp()).session)).key;
    await call(`/account/api-keys/${(await json(await call("/account/api-keys", { token: user.session }))).data[0].id}`, {
      method: "DELETE",
      token: user.session,
    });
    expect((await call(bad, { token: user.key })).status).toBe(401);
    expect((await call(bad, { token: freeKey })).status).toBe(403);
    expect((await call(bad, { token: anotherFreeKey })).status).toBe(403);
    const max = await maxUser();
    const res = await call(bad, { token: max.key });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].path).toBe("since");
    // Expired sync windows are judged after credentials too.
    const old = "/api/v1/tasks?since=2001-01-01T00:00:00Z";
    expect((await call(old, { token: user.key })).status).toBe(401);
    expect((await call(old, { token: max.key })).status).toBe(410);
  });
});
