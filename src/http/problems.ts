import type { OpenAPIHono } from "@hono/zod-openapi";
import { AppError, errorCodes, type ErrorCode } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { problemTypes } from "./problem-types";
import { statusOfCode, titleOf } from "../transport/problem";

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
/** `code` spans in the table's sentences, escaped first. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

const isErrorCode = (code: string): code is ErrorCode => (errorCodes as readonly string[]).includes(code);

function page(code: ErrorCode): string {
  const { meaning, action } = problemTypes[code];
  const status = statusOfCode(code);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${escapeHtml(titleOf(code))}: Todo &amp; Calendars API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{font-size:.9em}</style>
</head>
<body>
<main>
<h1>${escapeHtml(titleOf(code))}</h1>
<p>HTTP status <strong>${status}</strong>, problem code <code>${code}</code></p>
<h2>What it means</h2>
<p>${prose(meaning)}</p>
<h2>What to do</h2>
<p>${prose(action)}</p>
</main>
<footer>
<p>Every error of this API is RFC 9457 <code>application/problem+json</code> whose <code>type</code> is this page.
<a href="/api/v1/docs">API reference</a> · <a href="/api/v1/openapi.json">OpenAPI document</a></p>
</footer>
</body>
</html>
`;
}

/** GET /problems/{code}: the page each problem's `type` URI names, for every code the API can answer. */
export function registerProblemPages(app: OpenAPIHono<AppEnv>) {
  app.get("/problems/:code", (c) => {
    const code = c.req.param("code");
    if (!isErrorCode(code)) throw new AppError("not_found", `No problem type named ${code}.`);
    return c.html(page(code), 200, {
      // Only an inline style: no scripts, nothing loaded from anywhere.
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
    });
  });
}
