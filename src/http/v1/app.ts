import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { judgeKey, requireApiKey } from "../auth";
import { documentRateLimits } from "../rate-limit";
import { defaultHook, jsonBodies } from "../validation";
import { registerCalendarRoutes } from "./calendars";
import { registerDocsPage } from "./docs";
import { registerListRoutes } from "./lists";
import { registerOpenApiDocument } from "./openapi";
import { registerRootRoute } from "./root";
import { registerTaskRoutes } from "./tasks";

/** Everything under /api/v1. Its routes are exactly the paths of the published OpenAPI document. */
export function createV1App() {
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook });
  // The key's format and rate limit, then the body (its problems judged after the key's lookup).
  v1.use("/tasks/*", requireApiKey, jsonBodies(judgeKey));
  v1.use("/lists/*", requireApiKey, jsonBodies(judgeKey));
  registerRootRoute(v1);
  registerTaskRoutes(v1);
  registerListRoutes(v1);
  registerCalendarRoutes(v1);
  documentRateLimits(v1);
  documentRateLimits(v1, "/lists");
  registerOpenApiDocument(v1);
  registerDocsPage(v1);
  return v1;
}
