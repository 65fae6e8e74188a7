import type { McpServer, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { sdk } from "./sdk";
import type * as z from "zod";
import { type JsonSchema, publishedSchema, type SchemaIo } from "./published-schema";
import { validationError } from "../transport/validation";
import { registerTasksApp } from "./app/resource";
import { toolError } from "./errors";
import { offersTool } from "./tool-scopes";
import { type ToolContext, type ToolDescriptor, tools } from "./tools";

export const SERVER_INFO = { name: "todo-calendar", version: "1.0.0" } as const;

/**
 * What the server advertises, and nothing it cannot deliver: the SDK turns `listChanged` on by default
 * when a tool or resource is registered, but a server per request with no sessions and no GET stream
 * (405) never sends a `list_changed` notification, and a connection's tools and resources never change
 * (they follow its grant). No `subscribe` either. test/mcp/capabilities.test.ts exercises each one.
 */
export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } } as const;

/** The tools every credential may call, with or without Max. */
const PUBLIC_TOOLS = ["list_calendar_packs", "list_holidays"];

/**
 * The server's `instructions`, naming only the tools the credential is offered (tool-scopes.ts): a
 * read-only connection is not told to create or complete tasks it cannot, nor to confirm writes.
 */
export function instructionsFor(scopes: readonly string[] | undefined): string {
  const offered = (tools as readonly ToolDescriptor[]).filter((tool) => offersTool(scopes, tool.name));
  const taskTools = offered.filter((tool) => !PUBLIC_TOOLS.includes(tool.name)).map((tool) => tool.name);
  const writes = offered.some((tool) => !tool.annotations.readOnlyHint);
  return [
    "Personal tasks and public holiday calendars.",
    `The task tools (${taskTools.join(", ")}) act on the signed-in user's account and need an active Max membership; list_calendar_packs and list_holidays work for every ${scopes ? "connection" : "key"}.`,
    "Resolve relative dates with the timeZone and today that list_tasks returns.",
    writes
      ? "To use one of the user's lists by name (\"add milk to Groceries\"), call list_tasks with lists: true, then pass that list's id as listId (a list's name works too); a listId that is neither creates a list. Confirm with the user before creating, changing, completing or deleting tasks."
      : "This connection may read tasks but not change them: to add or change one, the user connects the app again and allows changes.",
  ].join(" ");
}

/**
 * A zod schema as the SDK sees it: the trimmed JSON Schema tools/list publishes (published-schema.ts),
 * built once per isolate instead of on every request (ours is an McpServer per request), and a
 * `validate` that lets the value through unchanged. Arguments are validated by the tool wrapper
 * below with the full zod schema, so a bad argument gets the same field-level `isError` result as
 * any domain error (the SDK's own check would answer with unstructured text). Results are built by
 * the domain from the same shapes; test/mcp/tasks.test.ts holds every result to its outputSchema.
 */
function advertised(schema: z.ZodType, io: SchemaIo): StandardSchemaWithJSON<unknown, unknown> {
  let json: JsonSchema | undefined;
  const published = () => (json ??= publishedSchema(schema, io));
  return {
    "~standard": {
      version: 1,
      vendor: "todo-calendar",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: published, output: published },
    },
  };
}

// Built on the first MCP request (module scope stays constant set-up), then shared by every server.
let registrations:
  | { tool: ToolDescriptor; inputSchema: StandardSchemaWithJSON; outputSchema: StandardSchemaWithJSON }[]
  | undefined;
const toolRegistrations = () =>
  (registrations ??= (tools as readonly ToolDescriptor[]).map((tool) => ({
    tool,
    inputSchema: advertised(tool.input, "input"),
    outputSchema: advertised(tool.output, "output"),
  })));

async function runTool(tool: ToolDescriptor, ctx: ToolContext, args: unknown) {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) throw validationError("arguments", parsed.error.issues);
  const output = await tool.run(ctx, parsed.data);
  return {
    content: [{ type: "text" as const, text: tool.text(output, parsed.data) }],
    structuredContent: output as Record<string, unknown>,
  };
}

/**
 * One server per request, bound to the authenticated actor: nothing is shared between callers. It
 * registers only the tools the credential's scopes allow (tool-scopes.ts); a call of another tool was
 * already refused with 403 before the SDK ran (handler.ts).
 */
export function createServer(ctx: ToolContext): McpServer {
  const server = new (sdk().McpServer)(SERVER_INFO, {
    instructions: instructionsFor(ctx.scopes),
    capabilities: structuredClone(CAPABILITIES),
  });
  for (const { tool, inputSchema, outputSchema } of toolRegistrations()) {
    if (!offersTool(ctx.scopes, tool.name)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema,
        outputSchema,
        annotations: tool.annotations,
        ...(tool._meta ? { _meta: tool._meta } : {}),
      },
      async (args: unknown) => {
        try {
          return await runTool(tool, ctx, args);
        } catch (e) {
          return toolError(e, ctx);
        }
      },
    );
  }
  registerTasksApp(server, ctx);
  return server;
}
