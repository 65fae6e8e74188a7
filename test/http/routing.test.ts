import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

describe("routing", () => {
  it("stays on Hono's RegExpRouter", () => {
    // SmartRouter picks the first router that accepts every route. Two patterns on one segment (such as
    // `:id` next to `:file{…\.ics}`) push it onto the TrieRouter, which walks its tree on every request.
    const router = createApp().router as unknown as {
      match(method: string, path: string): unknown;
      activeRouter: { name: string };
    };
    router.match("GET", "/api/v1/tasks");
    expect(router.activeRouter.name).toBe("RegExpRouter");
  });

  it("registers each middleware once per path: `/x/*` already covers `/x`", () => {
    // Hono's wildcard also matches the bare path, so `use("/x")` next to `use("/x/*")` runs twice on `/x`.
    const uses = createApp().routes.filter((route) => route.method === "ALL");
    const twice = uses.filter((route) =>
      uses.some((other) => other.handler === route.handler && other.path === `${route.path}/*`),
    );
    expect(twice.map((route) => route.path)).toEqual([]);
  });
});
