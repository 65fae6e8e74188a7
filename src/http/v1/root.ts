import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import * as z from "zod";
import type { AppEnv } from "../../transport/env";
import { errorResponses } from "../../transport/problem";
import { publicOrigin } from "../../transport/public-origin";

export const API_VERSION = "1.0.0";

const ApiRoot = z
  .object({
    name: z.string().meta({ description: "Name of the API.", example: "Todo & Calendars API" }),
    version: z.string().meta({
      description: "Version of this API description (semver); `/api/v1` stays compatible within 1.x.",
      example: API_VERSION,
    }),
    description: z.string().meta({
      description: "What the API offers.",
      example: "Personal tasks (Max membership) and public holiday calendar packs, over REST and MCP.",
    }),
    links: z
      .object({
        openapi: z
          .string()
          .meta({ description: "OpenAPI 3.1 document.", example: "https://todo.example.com/api/v1/openapi.json" }),
        docs: z
          .string()
          .meta({ description: "Human-readable API reference.", example: "https://todo.example.com/api/v1/docs" }),
        mcp: z
          .string()
          .meta({ description: "Remote MCP endpoint (Streamable HTTP).", example: "https://todo.example.com/mcp" }),
        skill: z
          .string()
          .meta({ description: "Agent skill file (SKILL.md).", example: "https://todo.example.com/SKILL.md" }),
        llms: z
          .string()
          .meta({ description: "llms.txt index for language models.", example: "https://todo.example.com/llms.txt" }),
        tasks: z.string().meta({
          description: "The task collection (API key and Max).",
          example: "https://todo.example.com/api/v1/tasks",
        }),
        lists: z.string().meta({
          description: "The list collection (API key and Max).",
          example: "https://todo.example.com/api/v1/lists",
        }),
        calendars: z.string().meta({
          description: "The public calendar catalogue.",
          example: "https://todo.example.com/api/v1/calendars",
        }),
        account: z.string().meta({
          description: "Account page where API keys are created (AI connection).",
          example: "https://todo.example.com/",
        }),
      })
      .meta({ description: "Absolute URLs of the service's entry points." }),
    contact: z.string().meta({ description: "Support contact address.", example: "support@todo.example.com" }),
  })
  .openapi("ApiRoot", { description: "Discovery document: what the API is and where its entry points are." });

const rootRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "getApiRoot",
  summary: "API metadata",
  description: "Discovery document: name, version and links to every entry point. No credentials needed.",
  tags: ["Meta"],
  security: [],
  responses: {
    200: { description: "API metadata.", content: { "application/json": { schema: ApiRoot } } },
    ...errorResponses(),
  },
});

export function registerRootRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(rootRoute, (c) => {
    const origin = publicOrigin(c.env, c.req.url);
    return c.json(
      {
        name: "Todo & Calendars API",
        version: API_VERSION,
        description: "Personal tasks (Max membership) and public holiday calendar packs, over REST and MCP.",
        links: {
          openapi: `${origin}/api/v1/openapi.json`,
          docs: `${origin}/api/v1/docs`,
          mcp: `${origin}/mcp`,
          skill: `${origin}/SKILL.md`,
          llms: `${origin}/llms.txt`,
          tasks: `${origin}/api/v1/tasks`,
          lists: `${origin}/api/v1/lists`,
          calendars: `${origin}/api/v1/calendars`,
          account: `${origin}/`,
        },
        contact: c.env.CONTACT_EMAIL,
      },
      200,
    );
  });
}
