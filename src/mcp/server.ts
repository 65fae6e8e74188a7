import { McpServer, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type * as z from "zod";
import { validationError } from "../http/validation";
import { toolError } from "./errors";
import { type ToolContext, type ToolDescriptor, tools } from "./tools";

export const SERVER_INFO = { name: "todo-calendar", version: "1.0.0" } as const;

const INSTRUCTIONS =
  "Personal tasks and public holiday calendars. Task tools (list_tasks, create_task, complete_task) act on the signed-in user's account and need an active Max membership; list_calendar_packs works for every key. Confirm with the user before creating or completing tasks.";

/**
 * Advertises the zod schema in tools/list but lets the arguments through unchanged, so the
 * tool wrapper below validates them and a bad argument gets the same field-level `isError`
 * result as any domain error (the SDK's own check would answer with unstructured text).
 */
function advertised(schema: z.ZodType): StandardSchemaWithJSON<unknown, unknown> {
  return {
    "~standard": {
      version: 1,
      vendor: "todo-calendar",
      validate: (value: unknown) => ({ value }),
      jsonSchema: schema["~standard"].jsonSchema,
    },
  };
}

async function runTool(tool: ToolDescriptor, ctx: ToolContext, args: unknown) {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) throw validationError("arguments", parsed.error.issues);
  const output = await tool.run(ctx, parsed.data);
  return { content: [{ type: "text" as const, text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
}

/** One server per request, bound to the authenticated actor: nothing is shared between callers. */
export function createServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of tools as readonly ToolDescriptor[]) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: advertised(tool.input),
        outputSchema: tool.output as unknown as StandardSchemaWithJSON,
        annotations: { title: tool.title, ...tool.annotations },
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
  return server;
}
