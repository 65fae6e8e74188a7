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

  // The probe's five (issue 35), then the rest of IANA's special-purpose registries, with neighbours
  // just outside each block and other spellings of the same address. A neighbour outside 2000::/3 is
  // still refused: only that block is global unicast.
  ["https://[::ffff:0:7f00:1]/x", /loopback/],
  ["https://[::ffff:0:127.0.0.1]/x", /loopback/],
  ["https://[0:0:0:0:ffff:0:7f00:1]/x", /loopback/],
  ["https://[::FFFF:0:7F00:1]/x", /loopback/],
  ["https://[::ffff:0:a9fe:a9fe]/x", /link-local/],
  ["https://[::ffff:0:808:808]/x", /reserved/],
  ["https://[64:ff9b:1::1]/x", /unspecified/],
  ["https://[64:ff9b:1::808:808]/x", /reserved/],
  ["https://[64:ff9b:1:ffff::c0a8:101]/x", /private/],
  ["https://[64:FF9B:0001::7f00:1]/x", /loopback/],

  ["https://[2001::1]/x", /reserved/],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x", /reserved/],
  ["https://[2001:0000:0000:0000:0000:0000:0000:0001]/x", /reserved/],
  ["https://[2001:1::1]/x", /reserved/],
  ["https://[2001:2::1]/x", /reserved/],
  ["https://[2001:20::1]/x", /reserved/],
  ["https://[2001:1ff:ffff::1]/x", /reserved/],
  ["https://[2001:200::1]/x", null],
  ["https://[2001:db8:ffff::1]/x", /reserved/],
  ["https://[2001:DB8::1]/x", /reserved/],
  ["https://[2001:db9::1]/x", null],
  ["https://192.88.99.1/x", /reserved/],
  ["https://192.88.99.255/x", /reserved/],
  ["https://3227017985/x", /reserved/],
  ["https://192.88.98.255/x", null],
  ["https://192.88.100.0/x", null],
  ["https://[::ffff:192.88.99.1]/x", /reserved/],
  ["https://[2002::1]/x", /unspecified/],
  ["https://[2002:808:808::1]/x", /reserved/],
  ["https://[2002:a9fe:a9fe::]/x", /link-local/],
  ["https://[2003::1]/x", null],
  ["https://[100::]/x", /reserved/],
  ["https://[100::ffff:ffff:ffff:ffff]/x", /reserved/],
  ["https://[100:0:0:1::1]/x", /reserved/],
  ["https://[100:0:0:2::1]/x", /reserved/],
  ["https://[2620:4f:8000::1]/x", /reserved/],
  ["https://[2620:4f:8001::1]/x", null],
  ["https://[3fff::1]/x", /reserved/],
  ["https://[3fff:fff:ffff::1]/x", /reserved/],
  ["https://[3fff:1000::1]/x", null],
  ["https://[5f00::1]/x", /reserved/],
  ["https://[5F00:ABCD::1]/x", /reserved/],
  ["https://[5f01::1]/x", /reserved/],
  ["https://[fbff:ffff::1]/x", /reserved/],
  ["https://[fdff:ffff::1]/x", /private/],
  ["https://[fe7f::1]/x", /reserved/],
  ["https://[fec0::1]/x", /reserved/],
  ["https://[0:0:0:0:0:ffff:7f00:1]/x", /loopback/],
  ["https://[::FFFF:127.0.0.1]/x", /loopback/],
  ["https://[::ffff:100.64.0.1]/x", /shared/],
  ["https://[::ffff:192.0.2.1]/x", /reserved/],
  ["https://[::8.8.8.8]/x", /reserved/],
  ["https://[64:ff9b::203.0.113.1]/x", /reserved/],
  ["https://[64:ff9b::1:0:0]/x", /reserved/],
  ["https://[4000::1]/x", /reserved/],
  ["https://[1fff:ffff::1]/x", /reserved/],
  ["https://[3fff:ffff::1]/x", null],
  ["https://192.0.0.9/x", /reserved/],
  ["https://192.0.0.255/x", /reserved/],
  ["https://192.0.1.0/x", null],
  ["https://192.31.196.1/x", /reserved/],
  ["https://192.52.193.1/x", /reserved/],
  ["https://192.175.48.1/x", /reserved/],
  ["https://198.19.255.255/x", /reserved/],
  ["https://198.20.0.0/x", null],
  ["https://198.51.99.255/x", null],
  ["https://203.0.114.0/x", null],
  ["https://223.255.255.255/x", null],
  ["https://239.255.255.255/x", /reserved/],
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
