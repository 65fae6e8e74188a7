import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../transport/env";
import { API_KEY, PUBLIC, PUBLIC_DOCUMENT, routesFor } from "../access";
import { registerCalendarRoutes } from "./calendars";
import { getTaskFeedRoute } from "../feeds";
import { registerEventDocuments } from "./event-documents";
import { registerImportRoutes } from "./import";
import { registerDocsPage } from "./docs";
import { registerLabelRoutes } from "./labels";
import { registerListRoutes } from "./lists";
import { registerOpenApiDocument } from "./openapi";
import { registerPushKeyRoute, registerPushSubscriptionRoutes } from "../push";
import { registerRootRoute } from "./root";
import { registerStreamRoutes } from "./stream";
import { registerTaskRoutes } from "./tasks";
import { registerWebhookRoutes } from "./webhooks";

/**
 * Everything under /api/v1. Its routes are exactly the paths of the published OpenAPI document.
 * Each group is registered under its access (../access.ts): a new resource joins the API_KEY line
 * and is behind the key, private CORS, the per-key limit and the body rules, with 429 documented.
 */
export function createV1App() {
  const v1 = new OpenAPIHono<AppEnv>();
  v1.route("/", routesFor(PUBLIC_DOCUMENT, registerRootRoute));
  v1.route(
    "/",
    routesFor(
      API_KEY,
      registerTaskRoutes,
      registerListRoutes,
      registerLabelRoutes,
      registerWebhookRoutes,
      registerImportRoutes,
      registerStreamRoutes,
      registerPushSubscriptionRoutes,
    ),
  );
  // What webhooks receive: OpenAPI 3.1 `webhooks` of the document, served by no route.
  registerEventDocuments(v1);
  // The task feed is served at the origin's root (src/http/feeds.ts) and documented here.
  v1.openAPIRegistry.registerPath(getTaskFeedRoute);
  v1.route("/", routesFor(PUBLIC, registerCalendarRoutes));
  v1.route("/", routesFor(PUBLIC_DOCUMENT, registerPushKeyRoute));
  // The document describes every route of v1, so it is served from v1's registry.
  v1.route(
    "/",
    routesFor(PUBLIC_DOCUMENT, (app) => registerOpenApiDocument(app, v1)),
  );
  v1.route("/", routesFor(PUBLIC, registerDocsPage));
  return v1;
}
