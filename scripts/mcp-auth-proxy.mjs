// Forwards every request to the MCP endpoint with `Authorization: Bearer <key>` added, so tools
// that cannot send headers (the MCP conformance suite) can test the authenticated /mcp.
//   MCP_KEY=todo_live_… [TARGET=http://localhost:8787] [PORT=8790] node scripts/mcp-auth-proxy.mjs
//   npx -y @modelcontextprotocol/conformance@0.1.16 server --url http://localhost:8790/mcp
import { createServer } from "node:http";
import { Readable } from "node:stream";

const key = process.env.MCP_KEY;
if (!key) {
  console.error("Set MCP_KEY to an API key (npm run demo-key prints one).");
  process.exit(1);
}
const target = (process.env.TARGET ?? "http://localhost:8787").replace(/\/$/, "");
const port = Number(process.env.PORT ?? 8790);

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !["host", "connection", "content-length"].includes(name))
      headers.set(name, String(value));
  }
  headers.set("authorization", `Bearer ${key}`);
  try {
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers,
      body: ["GET", "HEAD"].includes(req.method ?? "GET") ? undefined : Buffer.concat(chunks),
    });
    // fetch has already decoded a compressed body: its encoding and length headers no longer apply.
    const answer = Object.fromEntries(
      [...upstream.headers].filter(([name]) => !["content-encoding", "content-length"].includes(name)),
    );
    res.writeHead(upstream.status, answer);
    if (upstream.body) Readable.fromWeb(upstream.body).pipe(res);
    else res.end();
  } catch (e) {
    res.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${e.message}`);
  }
}).listen(port, () => console.log(`MCP auth proxy: http://localhost:${port}/mcp -> ${target}/mcp`));
