import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { exports } from "cloudflare:workers";
import { BASE, call } from "../helpers";

export const MCP_URL = `${BASE}/mcp`;

export interface McpClientOptions {
  /** Speak the 2026-07-28 revision (per-request envelope) instead of the 2025 initialize handshake. */
  modern?: boolean;
  headers?: Record<string, string>;
}

/** The official MCP client, its HTTP requests sent straight to the Worker. */
export async function mcpClient(key: string | undefined, options: McpClientOptions = {}): Promise<Client> {
  const headers: Record<string, string> = { ...options.headers };
  if (key) headers.Authorization = `Bearer ${key}`;
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const client = new Client(
    { name: "vitest", version: "1.0.0" },
    options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return client;
}

export const MCP_HEADERS = { Accept: "application/json, text/event-stream" };

/** A raw JSON-RPC POST as the spec shows it, without any prior `initialize`. */
export function rpc(body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) {
  return call("/mcp", { method: "POST", token: options.token, body, headers: { ...MCP_HEADERS, ...options.headers } });
}

/** Reads a JSON-RPC answer whether the server chose a JSON body or an SSE stream. */
export async function rpcResult(response: Response): Promise<any> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return JSON.parse(text);
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim());
  return JSON.parse(data[data.length - 1]!);
}

/** A tool call's structured content, failing the test on a tool error. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

export interface ToolErrorText {
  code: string;
  /** The paths named on the `Fields:` line. */
  fields: string[];
  /** The value of a `Label: value` line, such as `Hint` or `Upgrade`. */
  line(label: string): string | undefined;
  text: string;
}

/**
 * A tool error as every client sees it: `isError` with text only (src/mcp/errors.ts). Fails unless
 * the result is an error without structuredContent, which clients would hold to the outputSchema.
 */
export function toolErrorOf(result: {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
}): ToolErrorText {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result)}`);
  if (result.structuredContent !== undefined) throw new Error("a tool error must not carry structuredContent");
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  const lines = text.split("\n");
  const line = (label: string) => lines.find((l) => l.startsWith(`${label}: `))?.slice(label.length + 2);
  const fields = (line("Fields") ?? "")
    .split("; ")
    .filter(Boolean)
    .map((f) => f.slice(0, f.indexOf(": ")));
  return { code: lines[0]!.slice(0, lines[0]!.indexOf(": ")), fields, line, text };
}

/** Calls a tool that must fail, and reads its error. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolErrorText> {
  return toolErrorOf(await client.callTool({ name, arguments: args }));
}

/**
 * A task as REST sends it, without what MCP results leave out (src/mcp/tools/task-shape.ts): the
 * sync-only fields, and the fields at their defaults (open, priority 1, not important, no labels).
 */
export function withoutSync<T extends Record<string, unknown>>(task: T): Omit<T, "updatedAt" | "position"> {
  const { updatedAt: _u, position: _p, ...rest } = task;
  const defaults: Record<string, unknown> = { completed: false, important: false, priority: 1, notes: "" };
  return Object.fromEntries(
    Object.entries(rest).filter(
      ([name, value]) => defaults[name] !== value && !(name === "labels" && Array.isArray(value) && !value.length),
    ),
  ) as Omit<T, "updatedAt" | "position">;
}
