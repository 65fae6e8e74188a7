import { OpenAPIHono } from "@hono/zod-openapi";
import { createDb } from "./control/db";
import { toAppError } from "./transport/app-error";
import type { AppEnv } from "./transport/env";
import { createAccountApp } from "./http/account";
import { notFoundOrNotAllowed } from "./http/allowed-methods";
import { createAdminApp } from "./http/admin";
import { createBillingWebhookApp } from "./http/billing";
import { createBenchApp } from "./http/bench";
import { createEntryPointsApp } from "./http/entry-points";
import { registerFeedRoutes } from "./http/feeds";
import { registerUnsubscribeRoutes } from "./http/email-unsubscribe";
import { problemResponse } from "./transport/problem";
import { registerProblemPages } from "./http/problems";
import { securityHeaders } from "./http/security-headers";
import { createV1App } from "./http/v1/app";
import { createAuthorizeApp } from "./oauth/authorize";
import { PUBLIC, routesFor } from "./http/access";

export function createApp() {
  // strict: false so /api/v1 and /api/v1/ are the same route.
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  app.use(securityHeaders);
  app.use(async (c, next) => {
    c.set("db", createDb(c.env.DB));
    await next();
  });
  // Every sub-app brings its routes' guards (origin policy, credentials, rate limits, body rules),
  // each route registered under its access: src/http/access.ts.
  const v1 = createV1App();
  app.route("/api/v1", v1);
  app.route("/", createAccountApp());
  app.route("/", createAdminApp());
  app.route("/", createBillingWebhookApp());
  app.route("/", createEntryPointsApp());
  // The pages problem+json `type` URIs name: public documentation.
  app.route("/", routesFor(PUBLIC, registerProblemPages));
  // The calendar feed: its secret token is its credential (http/feeds.ts).
  app.route("/", routesFor(PUBLIC, registerFeedRoutes));
  // The "stop these emails" link: its signed token is its credential (http/email-unsubscribe.ts).
  app.route("/", routesFor(PUBLIC, registerUnsubscribeRoutes));
  // The OAuth authorize page signs in and asks consent: public by nature, with its own same-origin
  // checks and the sign-in limits inside (src/oauth/authorize.ts). The provider's other endpoints are
  // served before Hono (src/index.ts).
  app.route(
    "/",
    routesFor(PUBLIC, (routes) => routes.route("/", createAuthorizeApp())),
  );
  app.route("/", createBenchApp());

  app.onError((e, c) => problemResponse(c, toAppError(e)));
  // A documented path with another method is 405 with `Allow`; anything else 404.
  app.notFound(notFoundOrNotAllowed(v1, "/api/v1"));
  return app;
}
