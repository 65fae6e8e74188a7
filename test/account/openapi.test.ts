import { describe, expect, it } from "vitest";
import { createAccountApp } from "../../src/http/account";

/** The account routes are declared in OpenAPI: their errors in the documented order, the export's shape as JSON Schema. */
const doc = createAccountApp().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "account", version: "1" } });

interface Operation {
  security?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
}
const operationAt = (path: string) => doc.paths?.[path] as unknown as Record<string, Operation>;

const OPERATIONS: [string, string, string[]][] = [
  ["/account/sessions", "get", ["401", "429"]],
  ["/account/sessions/{id}", "delete", ["401", "404", "429"]],
  ["/account/password", "post", ["400", "401", "413", "429"]],
  ["/account", "delete", ["400", "401", "413", "429"]],
  ["/account/export", "get", ["401", "429"]],
  ["/account/connections", "get", ["401", "429"]],
  ["/account/connections/{id}", "delete", ["401", "404", "429"]],
  ["/account/billing", "get", ["401", "429"]],
  ["/account/billing/checkout", "post", ["400", "401", "404", "413", "429", "503"]],
  ["/account/billing/portal", "post", ["400", "401", "404", "413", "429", "503"]],
  ["/account/tasks", "get", ["400", "401", "403", "410", "429"]],
  // REST's createTask: its 409 was the never-thrown `idempotency_in_progress` (issue 33, dead code).
  ["/account/tasks", "post", ["400", "401", "403", "413", "422", "429"]],
  ["/account/tasks/{id}", "get", ["400", "401", "403", "404", "429"]],
  ["/account/tasks/{id}", "patch", ["400", "401", "403", "404", "412", "413", "429"]],
  ["/account/tasks/{id}", "delete", ["400", "401", "403", "404", "412", "429"]],
  ["/account/lists", "get", ["400", "401", "403", "410", "429"]],
  ["/account/lists", "post", ["400", "401", "403", "409", "413", "429"]],
  ["/account/lists/{id}", "patch", ["400", "401", "403", "404", "409", "413", "429"]],
  ["/account/lists/{id}", "delete", ["400", "401", "403", "404", "429"]],
];

describe("account routes in OpenAPI", () => {
  it.each(OPERATIONS)("%s %s declares its problem responses", (path, method, statuses) => {
    const operation = operationAt(path)[method]!;
    expect(operation.security).toEqual([{ sessionAuth: [] }]);
    for (const status of [...statuses, "500"])
      expect(operation.responses[status]?.content, `${status}`).toHaveProperty(["application/problem+json"]);
  });

  it("publishes the export's shape as a JSON Schema", () => {
    const response = operationAt("/account/export").get!.responses["200"]!;
    expect(response.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/AccountExport" });
    expect(response.headers).toHaveProperty("Content-Disposition");
    const schema = doc.components?.schemas?.AccountExport as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual([
      "account",
      "apiKeys",
      "billing",
      "connections",
      "exportedAt",
      "format",
      "labels",
      "lists",
      "membership",
      "passkeys",
      "pushSubscriptions",
      "securityEvents",
      "sessions",
      "tasks",
      "webhooks",
    ]);
    expect(schema.required).toContain("tasks");
    expect(schema.required).toContain("lists");
    expect(schema.required).toContain("securityEvents");
    expect(JSON.stringify(schema)).not.toMatch(/keyHash|tokenHash|passwordHash/);
  });
});
