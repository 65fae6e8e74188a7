import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { BENCH_WRITES_TABLE } from "../../src/http/bench";
import { describe, expect, it } from "vitest";
import { call, json } from "../helpers";

describe("benchmark-only route", () => {
  it("does not exist unless BENCH_ROUTES is on", async () => {
    expect(env.BENCH_ROUTES).toBe("off");
    for (const [method, path] of [
      ["GET", "/_bench/d1"],
      ["POST", "/_bench/d1"],
      ["GET", "/_bench/object"],
    ]) {
      const res = await call(path!, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect((await json(res)).code).toBe("not_found");
    }
  });

  it("is not part of the published OpenAPI document", async () => {
    const doc = await json(await call("/api/v1/openapi.json"));
    expect(Object.keys(doc.paths).filter((p) => p.includes("_bench"))).toEqual([]);
  });
});

describe("benchmark route when on", () => {
  const benchCall = async (path: string, init?: RequestInit) => {
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request(`http://example.com${path}`, init),
      { ...env, BENCH_ROUTES: "on" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("answers one D1 query, padded to the requested size for the payload row", async () => {
    expect(await (await benchCall("/_bench/d1")).json()).toEqual({ one: 1 });
    for (const size of [100, 20_000]) {
      const text = await (await benchCall(`/_bench/d1?pad=${size}`)).text();
      expect(new TextEncoder().encode(text).byteLength).toBe(size);
      expect(JSON.parse(text).one).toBe(1);
    }
  });

  it("answers one call to an account object for the object floor", async () => {
    const res = await benchCall("/_bench/object");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ one: 1 });
  });

  it("writes exactly one row for the write baseline, into a table only the bench creates", async () => {
    // No migration has the table: without it the route is a clear 404, not a 500.
    const missing = await benchCall("/_bench/d1", { method: "POST" });
    expect(missing.status).toBe(404);
    expect((await missing.json<{ detail: string }>()).detail).toContain(BENCH_WRITES_TABLE);

    await env.DB.exec(`CREATE TABLE ${BENCH_WRITES_TABLE} (n INTEGER PRIMARY KEY, at TEXT NOT NULL)`);
    try {
      const count = async () =>
        (await env.DB.prepare(`SELECT count(*) AS n FROM ${BENCH_WRITES_TABLE}`).first<{ n: number }>())!.n;
      const before = await count();
      const res = await benchCall("/_bench/d1", { method: "POST" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ written: 1 });
      expect(await count()).toBe(before + 1);
    } finally {
      await env.DB.exec(`DROP TABLE ${BENCH_WRITES_TABLE}`);
    }
  });
});
