import { describe, expect, it } from "vitest";
import { call, maxUser } from "../helpers";
import { authorizeUrl, connect, fetchWorker, ORIGIN, pkce, REDIRECT, registerClient } from "./support";

/** What a client says about itself (its name, its PKCE challenge) is checked before a person sees it. */

const RLO = "\u202e";
const PDF = "\u202c";
const LRI = "\u2066";
const PDI = "\u2069";

async function registered(name: string) {
  const res = await fetchWorker(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { client_id: string; client_name?: string };
}

const shownName = async (clientId: string) => {
  const html = await (await fetchWorker(authorizeUrl({ clientId, challenge: (await pkce()).challenge }))).text();
  return /<span id="client-name">([^<]*)<\/span>/.exec(html)?.[1];
};

describe("a registered client_name", () => {
  it("loses bidi overrides and control characters at registration, on the pages and in the account", async () => {
    // Reads "Agent exe.gnp" with the override: a name that lies about what it is.
    const name = `Good ${RLO}exe.gnp${PDF} Agent\u0000\u0007\u001b[31m ${LRI}x${PDI}\u200f\u061c\u0085`;
    const { client_id, client_name } = await registered(name);
    expect(client_name).toBe("Good exe.gnp Agent[31m x");
    expect(await shownName(client_id)).toBe("Good exe.gnp Agent[31m x");

    const user = await maxUser("oauth-bidi-name");
    await connect(user, { name });
    const listed = await call("/account/connections", { token: user.session });
    const [connection] = ((await listed.json()) as { data: { clientName: string }[] }).data;
    expect(connection?.clientName).toBe("Good exe.gnp Agent[31m x");
    // The account's security events name the new connection the same way.
    const audit = await call("/account/security-events", { token: user.session });
    expect(((await audit.json()) as { data: unknown[] }).data[0]).toMatchObject({
      type: "oauth_connected",
      app: "Good exe.gnp Agent[31m x",
    });
  });

  it("turns line breaks and tabs into single spaces, and keeps other scripts and emoji", async () => {
    const { client_name } = await registered("  Заметки\r\n\tAgent  👩‍💻 עברית ");
    expect(client_name).toBe("Заметки Agent 👩‍💻 עברית");
  });

  it("a name with nothing left is no name: the page shows the client id", async () => {
    const { client_id, client_name } = await registered(`${RLO}\u0000${PDF}`);
    expect(client_name).toBeUndefined();
    expect(await shownName(client_id)).toBe(client_id);
  });
});

describe("the S256 code_challenge", () => {
  const redirectOf = async (challenge: string) => {
    const clientId = await registerClient();
    const res = await fetchWorker(authorizeUrl({ clientId, challenge, state: "s-1" }), { redirect: "manual" });
    return res;
  };

  it.each([
    ["too short", "abc"],
    ["42 characters", "a".repeat(42)],
    ["44 characters", "a".repeat(44)],
    ["padded", `${"a".repeat(42)}=`],
    ["base64, not base64url", `${"a".repeat(41)}+/`],
    ["a space", `${"a".repeat(21)} ${"a".repeat(21)}`],
  ])("refuses one that is %s: back to the client with invalid_request", async (_, challenge) => {
    const res = await redirectOf(challenge);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/43/);
    expect(location.searchParams.get("state")).toBe("s-1");
  });

  it("takes 43 base64url characters, the SHA-256 of a verifier", async () => {
    expect((await redirectOf((await pkce()).challenge)).status).toBe(200);
    expect((await redirectOf(`${"A-_z".repeat(10)}09-`)).status).toBe(200);
  });
});
