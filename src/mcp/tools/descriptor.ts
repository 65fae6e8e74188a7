import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type * as z from "zod";
import type { VerbArgs, VerbName, VerbValue } from "../../object/verbs";

/**
 * MCP tools as plain descriptors. Each validates with the shared zod schemas and calls the same
 * domain verb as REST; `server.ts` registers them, `errors.ts` maps failures.
 */
export interface ToolContext {
  /**
   * Runs a verb for the request's credential: one call to its account's object, which judges the
   * credential first (mcp/credentials.ts). The handler answers 401 before any result leaves (handler.ts).
   */
  call<V extends VerbName>(verb: V, args: VerbArgs<V>): Promise<VerbValue<V>>;
  /** Static assets (the calendar catalogue). */
  assets: Fetcher;
  /** Origin of the request, for absolute links in results and errors. */
  origin: string;
  /** An OAuth token's scopes: tools/list offers only the tools they cover. Undefined for an API key (every tool). */
  scopes?: readonly string[];
}

/** Every tool states all four hints: clients decide on confirmation prompts from them. */
export interface ToolHints extends ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolDescriptor<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** One paragraph: what it does, when to use it, what to know before calling. Formats live in the schemas. */
  description: string;
  input: I;
  output: O;
  annotations: ToolHints;
  /** tools/list `_meta`: list_tasks links its MCP App here (`ui.resourceUri`, src/mcp/app/resource.ts). */
  _meta?: Record<string, unknown>;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.input<O>>;
  /**
   * The result's text block: a compact rendering for models (src/mcp/render/), one renderer per kind
   * of result. structuredContent carries `run`'s value in full.
   */
  text(output: z.input<O>, input: z.output<I>): string;
}

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(tool: ToolDescriptor<I, O>) => tool;
