import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../../transport/env";

/**
 * Same-origin copy of Scalar's standalone bundle, written to static/ by scripts/build-docs.mjs and
 * served by Workers static assets. Giving Scalar a `cdn` URL keeps it off jsDelivr and selects its
 * single-file (UMD) build, which loads no further chunks.
 */
export const SCALAR_BUNDLE_PATH = "/vendor/scalar/standalone.js";

/**
 * The page's Content Security Policy. Scripts: only our origin and the per-request nonce on the
 * two tags Scalar renders (the bundle and its inline init call), no 'unsafe-inline' or 'unsafe-eval'.
 * Styles: Vue sets inline `style` attributes and Scalar injects <style> elements at run time, so
 * 'unsafe-inline' is needed there (styles cannot run code). Fonts, images and requests stay on our
 * origin (the default fonts from Scalar's font host are switched off; `data:` covers inlined icons),
 * so the "Test request" client can call this API and nothing else.
 */
export const docsCsp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

const newNonce = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));

/** GET /api/v1/docs: the interactive API reference over /api/v1/openapi.json. */
export function registerDocsPage(v1: OpenAPIHono<AppEnv>) {
  v1.get(
    "/docs",
    Scalar((c) => {
      const nonce = newNonce();
      c.header("Content-Security-Policy", docsCsp(nonce));
      c.header("X-Content-Type-Options", "nosniff");
      c.header("Referrer-Policy", "no-referrer");
      // The nonce changes on every response, so the page itself must not be cached.
      c.header("Cache-Control", "no-store");
      return {
        url: "/api/v1/openapi.json",
        cdn: SCALAR_BUNDLE_PATH,
        nonce,
        pageTitle: "Todo & Calendars API reference",
        // Nothing from third parties: no remote fonts, no telemetry, no hosted agent, MCP generator
        // (our own MCP endpoint is at /mcp) or developer tools.
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: "never",
      };
    }),
  );
}
