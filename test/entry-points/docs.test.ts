import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCALAR_BUNDLE_PATH } from "../../src/http/v1/docs";
import { BASE, call } from "../helpers";

describe("API reference page", () => {
  it("renders Scalar over the OpenAPI document with scripts from this origin only", async () => {
    const res = await call("/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();

    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    const sources = scripts.flatMap((attrs) => /\bsrc="([^"]+)"/.exec(attrs)?.[1] ?? []);
    expect(sources).toEqual([SCALAR_BUNDLE_PATH]);
    expect(html).not.toMatch(/https?:\/\/(?!example\.com)[^"'\s]*\.(js|css|woff2?)\b/);
    expect(html).not.toContain("jsdelivr");
    expect(html).toContain('"url": "/api/v1/openapi.json"');
    expect(html).toContain('"withDefaultFonts": false');
  });

  it("sends a CSP whose per-response nonce is the one on each script tag", async () => {
    const [first, second] = await Promise.all([call("/api/v1/docs"), call("/api/v1/docs")]);
    const csp = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    const html = await first.text();
    expect([...html.matchAll(/<script\b[^>]*\bnonce="([^"]+)"/g)].map((m) => m[1])).toEqual([nonce, nonce]);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce!);
    expect(first.headers.get("cache-control")).toBe("no-store");
  });

  it("has the bundle it points at in the static assets (built by npm run assets)", async () => {
    const res = await env.ASSETS.fetch(`${BASE}${SCALAR_BUNDLE_PATH}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("createApiReference");
  });
});
