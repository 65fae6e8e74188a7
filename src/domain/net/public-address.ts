/**
 * Whether a URL someone else chose is fit for the Worker to fetch: https, and a host that is a public
 * name or a public IP literal. Used for Client ID Metadata Documents (src/oauth/client-id.ts) and meant
 * for any other URL a user names (webhooks). Pure: no DNS. A public name that resolves to a private
 * address is production's `global_fetch_strictly_public` to stop (docs/security.md), not this check's.
 *
 * The URL is parsed first (WHATWG, as `fetch` will parse it), so every spelling of an address reaches
 * the check in its one canonical form: `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` are all
 * 127.0.0.1, and `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`.
 *
 * Refused: every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries, multicast, and IPv6
 * outside 2000::/3. An IPv6 form carrying an IPv4 address is judged as that address when a fetch goes
 * there (IPv4-mapped, NAT64 64:ff9b::/96); the other carriers (IPv4-compatible, IPv4-translated,
 * local-use NAT64, 6to4 and Teredo) are refused whatever they carry.
 */

type Range = [first: number, prefixBits: number, kind: string];

const ip4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const RESERVED = "a reserved address";

/**
 * IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), every block of it, plus multicast.
 * The few blocks the registry marks globally reachable (192.0.0.9 and .10 anycast, AS112, AMT) are refused
 * too: each serves one protocol, never an https receiver.
 */
const IPV4_RANGES: Range[] = [
  [ip4(0, 0, 0, 0), 8, "an unspecified address"],
  [ip4(10, 0, 0, 0), 8, "a private address"],
  [ip4(100, 64, 0, 0), 10, "a shared (carrier-grade NAT) address"],
  [ip4(127, 0, 0, 0), 8, "a loopback address"],
  [ip4(169, 254, 0, 0), 16, "a link-local address"],
  [ip4(172, 16, 0, 0), 12, "a private address"],
  [ip4(192, 0, 0, 0), 24, RESERVED], // IETF protocol assignments: DS-Lite, NAT64 discovery, PCP/TURN anycast
  [ip4(192, 0, 2, 0), 24, RESERVED], // documentation (TEST-NET-1)
  [ip4(192, 31, 196, 0), 24, RESERVED], // AS112-v4
  [ip4(192, 52, 193, 0), 24, RESERVED], // AMT
  [ip4(192, 88, 99, 0), 24, RESERVED], // 6to4 relay anycast (deprecated) and 6a44
  [ip4(192, 168, 0, 0), 16, "a private address"],
  [ip4(192, 175, 48, 0), 24, RESERVED], // AS112 direct delegation
  [ip4(198, 18, 0, 0), 15, RESERVED], // benchmarking
  [ip4(198, 51, 100, 0), 24, RESERVED], // documentation (TEST-NET-2)
  [ip4(203, 0, 113, 0), 24, RESERVED], // documentation (TEST-NET-3)
  // Multicast, then the old class E and limited broadcast.
  [ip4(224, 0, 0, 0), 4, RESERVED],
  [ip4(240, 0, 0, 0), 4, RESERVED],
];

function ipv4Kind(address: number): string | null {
  for (const [first, bits, kind] of IPV4_RANGES) {
    if (address >>> (32 - bits) === first >>> (32 - bits)) return kind;
  }
  return null;
}

/** A canonical dotted quad (what the URL parser makes of any IPv4 spelling), else undefined. */
function parseIpv4(host: string): number | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return ip4(a, b, c, d);
}

/** The eight 16-bit groups of an IPv6 literal (no brackets) as the URL parser serializes it (no dotted tail). */
function parseIpv6(literal: string): number[] | undefined {
  const [head = "", tail, extra] = literal.split("::");
  if (extra !== undefined) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = 8 - left.length - right.length;
  if (tail === undefined ? zeros !== 0 : zeros < 0) return undefined;
  const all = [...left, ...Array<number>(zeros).fill(0), ...right];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

/**
 * What a block of IPv6 addresses is: a refusal, or `embedded` for the two forms a fetch really sends to
 * the IPv4 address in their last 32 bits (IPv4-mapped, and the well-known NAT64 prefix), judged as that
 * address. Forms that embed an IPv4 address but are never a server's (IPv4-compatible, IPv4-translated,
 * 6to4) are refused whatever they carry, naming the embedded address's kind when it has one.
 */
type V6Rule = { embedded: "judge" } | { embedded: "name" | "ignore"; kind: string };
type V6Range = [prefix: string, prefixBits: number, rule: V6Rule];

const refuse = (kind: string): V6Rule => ({ embedded: "ignore", kind });
const refuseNaming = (kind: string): V6Rule => ({ embedded: "name", kind });

/**
 * IANA's IPv6 Special-Purpose Address Registry, every block of it (the globally reachable anycast and
 * AS112 entries inside 2001::/23 and 2620:4f:8000::/48 included: none is an https receiver), plus
 * site-local and multicast. The first match wins, so a narrow block sits before a wider one.
 */
const IPV6_RANGES: V6Range[] = [
  ["::", 128, refuse("an unspecified address")],
  ["::1", 128, refuse("a loopback address")],
  ["::ffff:0:0", 96, { embedded: "judge" }], // IPv4-mapped: the fetch goes to the IPv4 address
  ["::ffff:0:0:0", 96, refuseNaming(RESERVED)], // IPv4-translated (SIIT, RFC 2765)
  ["::", 96, refuseNaming(RESERVED)], // IPv4-compatible (deprecated by RFC 4291)
  ["64:ff9b::", 96, { embedded: "judge" }], // NAT64 well-known prefix (RFC 6052)
  ["64:ff9b:1::", 48, refuseNaming(RESERVED)], // local-use IPv4/IPv6 translation (RFC 8215)
  ["100::", 64, refuse(RESERVED)], // discard-only (RFC 6666)
  ["100:0:0:1::", 64, refuse(RESERVED)], // dummy prefix (RFC 9780)
  ["2001::", 23, refuse(RESERVED)], // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHIDv2, AMT…
  ["2001:db8::", 32, refuse(RESERVED)], // documentation
  ["2002::", 16, { embedded: "name", kind: RESERVED }], // 6to4 (deprecated by RFC 7526), IPv4 in bits 16–47
  ["2620:4f:8000::", 48, refuse(RESERVED)], // AS112 direct delegation
  ["3fff::", 20, refuse(RESERVED)], // documentation (RFC 9637)
  ["5f00::", 16, refuse(RESERVED)], // SRv6 SIDs (RFC 9602)
  ["fc00::", 7, refuse("a private (unique local) address")],
  ["fe80::", 10, refuse("a link-local address")],
  ["fec0::", 10, refuse(RESERVED)], // site-local (deprecated)
  ["ff00::", 8, refuse(RESERVED)], // multicast
];

const PARSED_V6 = IPV6_RANGES.map(([prefix, bits, rule]) => ({ groups: parseIpv6(prefix) ?? [], bits, rule }));

function inPrefix(g: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((g[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const embedded = (high = 0, low = 0) => ((high << 16) | low) >>> 0;

function ipv6Kind(g: number[]): string | null {
  const range = PARSED_V6.find((r) => inPrefix(g, r.groups, r.bits));
  // Outside the blocks above, only 2000::/3 is allocated for global unicast; the rest is IETF-reserved.
  if (!range) return (g[0] ?? 0) >>> 13 === 1 ? null : RESERVED;
  const { rule } = range;
  // 6to4 carries its IPv4 address right after the prefix; the others in their last 32 bits.
  const v4 = rule.embedded !== "ignore" && (g[0] === 0x2002 ? embedded(g[1], g[2]) : embedded(g[6], g[7]));
  if (rule.embedded === "judge") return ipv4Kind(v4 as number);
  if (rule.embedded === "name") return ipv4Kind(v4 as number) ?? rule.kind;
  return rule.kind;
}

/** Why `host` (a parsed URL's hostname) is not a public host, or null when it is. */
function hostRefusal(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "is localhost";
  const v6 = name.startsWith("[") && name.endsWith("]") ? parseIpv6(name.slice(1, -1)) : undefined;
  if (v6) return prefixIs(ipv6Kind(v6));
  const v4 = parseIpv4(name);
  if (v4 !== undefined) return prefixIs(ipv4Kind(v4));
  // A name without a dot is resolved by a local search domain, never on the public internet.
  if (!name.includes(".")) return "is not a public host name";
  return null;
}

const prefixIs = (kind: string | null) => (kind ? `is ${kind}` : null);

/**
 * Why the Worker must not fetch `url`, as one sentence for the person who gave it, or null when it may:
 * it must parse, use https, and name a public host (no localhost, no loopback, private, link-local,
 * CGNAT, unspecified or otherwise reserved IP literal, in any IPv4 or IPv6 spelling).
 */
export function publicUrlRefusal(url: string | URL): string | null {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return "This is not a valid URL; it must be an absolute https URL.";
  }
  if (parsed.protocol !== "https:") return "The URL must use https.";
  if (!parsed.hostname) return "This is not a valid URL; it must be an absolute https URL.";
  const refusal = hostRefusal(parsed.hostname);
  return refusal && `The URL's host ${parsed.hostname} ${refusal}; it must be a public https host.`;
}
