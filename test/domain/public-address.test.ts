import { describe, expect, it } from "vitest";
import { publicUrlRefusal } from "../../src/domain/net/public-address";

/**
 * A URL the Worker is asked to fetch on someone's behalf (a Client ID Metadata Document today, a
 * webhook later) must name a public https host. Each row: the URL, and the refusal's key words
 * (null: accepted). The spellings are the ones URL parsers accept for the same address.
 */
const CASES: [url: string, refusal: RegExp | null][] = [
  // Public hosts pass.
  ["https://client.example.com/oauth/metadata.json", null],
  ["https://claude.ai/oauth/mcp-oauth-client-metadata", null],
  ["https://example.com:8443/x", null],
  ["https://8.8.8.8/x", null],
  ["https://1.1.1.1/x", null],
  ["https://100.63.255.255/x", null],
  ["https://100.128.0.0/x", null],
  ["https://172.15.255.255/x", null],
  ["https://172.32.0.0/x", null],
  ["https://169.253.255.255/x", null],
  ["https://192.169.0.1/x", null],
  ["https://[2606:4700:4700::1111]/x", null],
  ["https://[2001:4860:4860::8888]/x", null],
  ["https://xn--bcher-kva.example/x", null],

  // Not https, or not a URL.
  ["http://client.example.com/x", /https/],
  ["ftp://client.example.com/x", /https/],
  ["data:application/json,{}", /https/],
  ["javascript:alert(1)", /https/],
  ["client.example.com/x", /URL/],
  ["", /URL/],
  ["https://", /URL/],
  ["https://[::1/x", /URL/],

  // Local names.
  ["https://localhost/x", /localhost/],
  ["https://LOCALHOST/x", /localhost/],
  ["https://localhost./x", /localhost/],
  ["https://app.localhost/x", /localhost/],
  ["https://intranet/x", /not a public host name/],

  // IPv4 loopback, in every spelling a URL parser reads as 127.0.0.1.
  ["https://127.0.0.1/x", /loopback/],
  ["https://127.255.255.254/x", /loopback/],
  ["https://127.1/x", /loopback/],
  ["https://2130706433/x", /loopback/],
  ["https://0x7f000001/x", /loopback/],
  ["https://0x7f.0.0.1/x", /loopback/],
  ["https://0177.0.0.1/x", /loopback/],
  ["https://127.0.0.1.:443/x", /loopback/],
  ["https://%31%32%37.0.0.1/x", /loopback/],

  // Private (RFC 1918), CGNAT (RFC 6598), link-local, unspecified.
  ["https://10.0.0.1/x", /private/],
  ["https://10.255.255.255/x", /private/],
  ["https://167772161/x", /private/],
  ["https://172.16.0.1/x", /private/],
  ["https://172.31.255.255/x", /private/],
  ["https://192.168.1.1/x", /private/],
  ["https://0xc0a80101/x", /private/],
  ["https://100.64.0.1/x", /shared/],
  ["https://100.127.255.255/x", /shared/],
  ["https://169.254.169.254/x", /link-local/],
  ["https://0.0.0.0/x", /unspecified/],
  ["https://0/x", /unspecified/],
  ["https://0.1.2.3/x", /unspecified/],

  // Other special-purpose IPv4 ranges: never a public server.
  ["https://192.0.0.8/x", /reserved/],
  ["https://192.0.2.1/x", /reserved/],
  ["https://198.18.0.1/x", /reserved/],
  ["https://198.51.100.1/x", /reserved/],
  ["https://203.0.113.1/x", /reserved/],
  ["https://224.0.0.1/x", /reserved/],
  ["https://240.0.0.1/x", /reserved/],
  ["https://255.255.255.255/x", /reserved/],

  // IPv6: loopback, unspecified, unique local, link-local, and IPv4 inside IPv6.
  ["https://[::1]/x", /loopback/],
  ["https://[0:0:0:0:0:0:0:1]/x", /loopback/],
  ["https://[0000::0001]/x", /loopback/],
  ["https://[::]/x", /unspecified/],
  ["https://[fc00::1]/x", /private/],
  ["https://[fd12:3456:789a::1]/x", /private/],
  ["https://[FD00::1]/x", /private/],
  ["https://[fe80::1]/x", /link-local/],
  ["https://[febf:ffff::1]/x", /link-local/],
  ["https://[fec0::1]/x", /reserved/],
  ["https://[ff02::1]/x", /reserved/],
  ["https://[2001:db8::1]/x", /reserved/],
  ["https://[100::1]/x", /reserved/],
  ["https://[::ffff:127.0.0.1]/x", /loopback/],
  ["https://[::ffff:7f00:1]/x", /loopback/],
  ["https://[::ffff:10.0.0.1]/x", /private/],
  ["https://[::ffff:169.254.169.254]/x", /link-local/],
  ["https://[::127.0.0.1]/x", /loopback/],
  ["https://[64:ff9b::7f00:1]/x", /loopback/],
  ["https://[64:ff9b::c0a8:101]/x", /private/],
  ["https://[2002:7f00:1::]/x", /loopback/],
  ["https://[2002:a00:1::1]/x", /private/],
  ["https://[::ffff:8.8.8.8]/x", null],
  ["https://[64:ff9b::808:808]/x", null],
];

describe("publicUrlRefusal", () => {
  it.each(CASES)("%s", (url, refusal) => {
    const reason = publicUrlRefusal(url);
    if (refusal === null) expect(reason).toBeNull();
    else expect(reason).toMatch(refusal);
  });

  it("takes a URL object as well as a string", () => {
    expect(publicUrlRefusal(new URL("https://[::1]/x"))).toMatch(/loopback/);
    expect(publicUrlRefusal(new URL("https://example.com/x"))).toBeNull();
  });

  it("says what is wrong in a sentence that names the host", () => {
    expect(publicUrlRefusal("https://10.1.2.3/x")).toBe(
      "The URL's host 10.1.2.3 is a private address; it must be a public https host.",
    );
  });
});
