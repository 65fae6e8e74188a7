import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { describe, expect, it } from "vitest";
import { call, json } from "../helpers";

describe("benchmark-only route", () => {
  it("does not exist unless BENCH_ROUTES is on", async () => {
    expect(env.BENCH_ROUTES).toBe("off");
    const res = await call("/_bench/d1");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await json(res)).code).toBe("not_found");
  });

  it("is not part of the published OpenAPI document", async () => {
    const doc = await json(await call("/api/v1/openapi.json"));
    expect(Object.keys(doc.paths).filter((p) => p.includes("_bench"))).toEqual([]);
  });
});

describe("benchmark route when on", () => {
  const benchCall = async (path: string) => {
    const ctx = createExecutionContext();
    const res = await createApp().fetch(new Request(`http://example.com${path}`), { ...env, BENCH_ROUTES: "on" }, ctx);
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
});
