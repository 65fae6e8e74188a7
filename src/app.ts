import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { createDb } from "./db/client";
import { classifyDbError, describeError } from "./db/faults";
import { AppError, isAppError } from "./domain/errors";
import type { AppEnv } from "./env";
import { createAccountApp } from "./http/account";
import { createAdminApp } from "./http/admin";
import { createBenchApp } from "./http/bench";
import { createEntryPointsApp } from "./http/entry-points";
import { problemResponse } from "./http/problem";
import { registerProblemPages } from "./http/problems";
import { securityHeaders } from "./http/security-headers";
import { createV1App } from "./http/v1/app";
import { createAuthorizeApp } from "./oauth/authorize";
import { PUBLIC, routesFor } from "./http/access";

/** Hono's own exceptions (malformed JSON, media type) expressed as domain errors. */
function fromHttpException(e: HTTPException): AppError {
  if (e.status === 413) return new AppError("payload_too_large", "The body is too large.");
  if (e.status === 404) return new AppError("not_found", "No such route.");
  if (e.status === 400 || e.status === 415) {
    const detail = /json/i.test(e.message) ? "The body is not valid JSON." : e.message || "The request is malformed.";
    return new AppError("validation_failed", detail, [{ path: "", message: detail }]);
  }
  return new AppError("internal", "Something went wrong on our side.");
}

export function toAppError(e: unknown): AppError {
  if (isAppError(e)) return e;
  if (e instanceof HTTPException) return fromHttpException(e);
  // Log the innermost error's name and message only: bodies, headers and SQL parameters can hold secrets.
  const dbFault = classifyDbError(e);
  console.error(dbFault ? "database unavailable" : "unhandled error", describeError(e));
  return dbFault ?? new AppError("internal", "Something went wrong on our side. Try again later.");
}

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
  app.route("/api/v1", createV1App());
  app.route("/", createAccountApp());
  app.route("/", createAdminApp());
  app.route("/", createEntryPointsApp());
  // The pages problem+json `type` URIs name: public documentation.
  app.route("/", routesFor(PUBLIC, registerProblemPages));
  // The OAuth authorize page signs in and asks consent: public by nature, with its own same-origin
  // checks and the sign-in limits inside (src/oauth/authorize.ts). The provider's other endpoints are
  // served before Hono (src/index.ts).
  app.route(
    "/",
    routesFor(PUBLIC, (routes) => routes.route("/", createAuthorizeApp())),
  );
  app.route("/", createBenchApp());

  app.onError((e, c) => problemResponse(c, toAppError(e)));
  app.notFound((c) => problemResponse(c, new AppError("not_found", `No route for ${c.req.method} ${c.req.path}.`)));
  return app;
}
