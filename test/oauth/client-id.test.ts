import { afterEach, describe, expect, it, vi } from "vitest";
import { uniqueIp } from "../hardening/support";
import { authorizeUrl, fetchWorker, limited, ORIGIN, pkce, REDIRECT, registerClient, tokenRequest } from "./support";

/**
 * Client ID Metadata Documents: a client_id that is an https URL is fetched by the provider. The Worker
 * refuses to fetch a local or private address, gives up on a slow document, and limits authorize requests
 * per client IP. The provider's outbound fetch is this isolate's global fetch: a spy sees every call.
 */

afterEach(() => vi.restoreAllMocks());

const fetchSpy = () => vi.spyOn(globalThis, "fetch");
const fetchedUrls = (spy: ReturnType<typeof fetchSpy>) =>
  spy.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));

const LOCAL_CLIENT_IDS: [clientId: string, reason: RegExp][] = [
  ["https://localhost/client.json", /localhost/],
  ["https://127.0.0.1/client.json", /loopback/],
  ["https://2130706433/client.json", /loopback/],
  ["https://0x7f000001/client.json", /loopback/],
  ["https://[::1]/client.json", /loopback/],
  ["https://[::ffff:127.0.0.1]/client.json", /loopback/],
  ["https://10.0.0.7/client.json", /private/],
  ["https://192.168.0.1:8443/client.json", /private/],
  ["https://169.254.169.254/latest/meta-data", /link-local/],
  ["https://100.64.1.1/client.json", /shared/],
  ["https://0.0.0.0/client.json", /unspecified/],
  ["https://[fd00::1]/client.json", /private/],
  ["http://client.example/client.json", /https/],
];

describe("a client_id URL on a local or private host", () => {
  it.each(LOCAL_CLIENT_IDS)("%s: refused at authorize, never fetched", async (clientId, reason) => {
    const spy = fetchSpy();
    const res = await fetchWorker(authorizeUrl({ clientId, challenge: (await pkce()).challenge }));
    const html = await res.text();
    expect(res.status, html).toBe(400);
    expect(html).toContain("This app could not be verified");
    expect(html).toMatch(reason);
    // No redirect to an unchecked redirect_uri either.
    expect(res.headers.get("location")).toBeNull();
    expect(fetchedUrls(spy).filter((url) => !url.startsWith(ORIGIN))).toEqual([]);
  });

  it("is refused at the token endpoint too (invalid_client), as client_id or in Basic credentials", async () => {
    const spy = fetchSpy();
    const form = await tokenRequest({
      grant_type: "authorization_code",
      code: "user:grant:secret",
      client_id: "https://127.0.0.1/client.json",
      code_verifier: "x".repeat(43),
    });
    expect(form.status).toBe(401);
    expect(await form.json()).toMatchObject({
      error: "invalid_client",
      error_description: expect.stringMatching(/loopback/),
    });
    const basic = await fetchWorker(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${btoa(`${encodeURIComponent("https://10.0.0.1/c.json")}:secret`)}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "a:b:c" }).toString(),
    });
    expect(basic.status).toBe(401);
    expect(await basic.json()).toMatchObject({ error: "invalid_client" });
    expect(fetchedUrls(spy)).toEqual([]);
  });
});

/** A document server that accepts the connection and never answers (until the fetch is aborted). */
function hangingServer(url: string) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const target = input instanceof Request ? input.url : String(input);
    if (target !== url) return real(input, init);
    return new Promise((_, reject) => {
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  });
}

describe("a slow Client ID Metadata Document", () => {
  it("is given up after about 3 seconds at authorize, with a page that says so", async () => {
    const clientId = `https://slow-${crypto.randomUUID()}.example/client.json`;
    const spy = hangingServer(clientId);
    const started = Date.now();
    const res = await fetchWorker(authorizeUrl({ clientId, challenge: (await pkce()).challenge }));
    const elapsed = Date.now() - started;
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This app could not be verified");
    expect(fetchedUrls(spy)).toContain(clientId);
    expect(elapsed).toBeGreaterThanOrEqual(2_900);
    expect(elapsed).toBeLessThan(4_000);
  }, 15_000);

  it("is given up after about 3 seconds at the token endpoint", async () => {
    const clientId = `https://slow-${crypto.randomUUID()}.example/client.json`;
    hangingServer(clientId);
    const started = Date.now();
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code: "user:grant:secret",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: "x".repeat(43),
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_client" });
  }, 15_000);
});

describe("authorize requests per client IP", () => {
  it("takes 10 a minute (GET and POST alike), then a 429 page with Retry-After", async () => {
    const clientId = await registerClient();
    const url = authorizeUrl({ clientId, challenge: (await pkce()).challenge });
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await limited(url, { ip })).status);
    const refused = await limited(url, { ip });
    expect(statuses).toEqual(Array(10).fill(200));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-type")).toContain("text/html");
    expect(await refused.text()).toContain("Too many requests");
    // Another address is not held back.
    expect((await limited(url, { ip: uniqueIp() })).status).toBe(200);
  }, 60_000);
});
