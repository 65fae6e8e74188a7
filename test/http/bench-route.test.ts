import { env } from "cloudflare:workers";
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
