import { describe, expect, it } from "vitest";
import { BASE, call } from "../helpers";
import { fetchWorker, MCP, mcpCall, ORIGIN } from "./support";

const toolsList = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;

describe("OAuth discovery", () => {
  it("serves RFC 9728 metadata for <origin>/mcp at its path and at the root, where clients look first", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await fetchWorker(`${ORIGIN}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(await res.json()).toMatchObject({
        resource: MCP,
        authorization_servers: [ORIGIN],
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("serves RFC 8414 metadata: S256 only, registration, revocation, iss, Client ID Metadata Documents", async () => {
    const res = await fetchWorker(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/token`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      scopes_supported: ["tasks:read", "tasks:write"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      protected_resources: [MCP],
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
  });

  it("answers every 401 from /mcp with resource_metadata and a problem+json body", async () => {
    const cases: [string, string | undefined][] = [
      ["no credential", undefined],
      ["an unknown key", `todo_live_${"A".repeat(32)}`],
      ["a session token", `todo_sess_${"A".repeat(43)}`],
      ["an unknown OAuth token", "someone:abcdefghijklmnop:abcdefghijklmnopqrstuvwxyz012345"],
      ["garbage", "not a token at all"],
    ];
    for (const [label, token] of cases) {
      const res = await mcpCall(token, toolsList);
      expect(res.status, label).toBe(401);
      expect(res.headers.get("www-authenticate"), label).toMatch(
        new RegExp(`^Bearer .*resource_metadata="${METADATA.replaceAll(".", "\\.")}"`),
      );
      expect(res.headers.get("content-type"), label).toBe("application/problem+json");
      expect(((await res.json()) as { code: string }).code, label).toBe("unauthorized");
    }
  });

  it("points the challenge at the request's own origin where no public origin is configured", async () => {
    const res = await call("/mcp", { method: "POST", body: toolsList, headers: { Accept: "application/json" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("answers 404 problem+json for another resource's metadata", async () => {
    const res = await fetchWorker(`${ORIGIN}/.well-known/oauth-protected-resource/api/v1`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("lets a browser client read the metadata documents (CORS)", async () => {
    const res = await fetchWorker(`${ORIGIN}/.well-known/oauth-authorization-server`, {
      headers: { Origin: "https://agent.example" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://agent.example");
  });

  it("serves no OAuth over plain http off loopback: 404 for its endpoints", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/oauth/authorize?client_id=x"]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBe("application/problem+json");
    }
  });
});
