import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, call } from "../helpers";

/**
 * llms.txt's layout and links against the running Worker. Its mentions of tools, operations, paths and
 * query parameters are checked with SKILL.md's in consistency.test.ts.
 */

const ORIGIN = "https://todo.example.com";

let llms: string;

beforeAll(async () => {
  llms = await (await call("/llms.txt")).text();
});

describe("llms.txt", () => {
  const links = () =>
    [...llms.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)(?:: (.+))?$/gm)].map((m) => ({ name: m[1]!, url: m[2]! }));

  it("follows the llms.txt format: H1, summary, link sections and an Optional section", () => {
    const lines = llms.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[1]).toBe("");
    expect(lines[2]).toMatch(/^> \S/);
    expect(llms.match(/^# /gm)).toHaveLength(1);
    expect(llms).toMatch(/^## Optional$/m);
    for (const section of llms.split(/^## /m).slice(1)) {
      const body = section
        .split("\n")
        .slice(1)
        .filter((l) => l.trim() !== "");
      expect(body.length, section).toBeGreaterThan(0);
      for (const line of body)
        expect(line, `link line in ## ${section.split("\n")[0]}`).toMatch(/^- \[[^\]]+\]\([^)]+\)(: .+)?$/);
    }
  });

  it("links the OpenAPI document, the reference, SKILL.md, the MCP endpoint and the key steps", () => {
    const urls = links().map((l) => l.url);
    for (const url of ["/api/v1/openapi.json", "/api/v1/docs", "/SKILL.md", "/mcp", "/#ai-connection"]) {
      expect(urls, url).toContain(`${ORIGIN}${url}`);
    }
  });

  it("links only pages the service has", async () => {
    for (const { url } of links()) {
      expect(url.startsWith(ORIGIN), url).toBe(true);
      const target = new URL(url);
      // /mcp answers 401 without a key; everything else is public.
      let res = await call(target.pathname);
      if (res.status === 404) res = await env.ASSETS.fetch(`${BASE}${target.pathname}`);
      expect(res.status, url).not.toBe(404);
      expect(res.status, url).toBeLessThan(500);
      if (target.hash) expect(await res.text(), url).toContain(`id="${target.hash.slice(1)}"`);
    }
  });
});
