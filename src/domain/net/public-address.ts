/**
 * Whether a URL someone else chose is fit for the Worker to fetch: https, and a host that is a public
 * name or a public IP literal. Used for Client ID Metadata Documents (src/oauth/client-id.ts) and meant
 * for any other URL a user names (webhooks). Pure: no DNS. A public name that resolves to a private
 * address is production's `global_fetch_strictly_public` to stop (docs/security.md), not this check's.
 *
 * The URL is parsed first (WHATWG, as `fetch` will parse it), so every spelling of an address reaches
 * the check in its one canonical form: `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` are all
 * 127.0.0.1, and `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`.
 */

type Range = [first: number, prefixBits: number, kind: string];

const ip4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IANA's special-purpose IPv4 ranges a public server never has (RFC 6890 and its updates). */
const IPV4_RANGES: Range[] = [
  [ip4(0, 0, 0, 0), 8, "an unspecified address"],
  [ip4(10, 0, 0, 0), 8, "a private address"],
  [ip4(100, 64, 0, 0), 10, "a shared (carrier-grade NAT) address"],
  [ip4(127, 0, 0, 0), 8, "a loopback address"],
  [ip4(169, 254, 0, 0), 16, "a link-local address"],
  [ip4(172, 16, 0, 0), 12, "a private address"],
  [ip4(192, 0, 0, 0), 24, "a reserved address"],
  [ip4(192, 0, 2, 0), 24, "a reserved address"],
  [ip4(192, 168, 0, 0), 16, "a private address"],
  [ip4(198, 18, 0, 0), 15, "a reserved address"],
  [ip4(198, 51, 100, 0), 24, "a reserved address"],
  [ip4(203, 0, 113, 0), 24, "a reserved address"],
  // Multicast, then the old class E and broadcast.
  [ip4(224, 0, 0, 0), 4, "a reserved address"],
  [ip4(240, 0, 0, 0), 4, "a reserved address"],
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

/** The eight 16-bit groups of a bracketed IPv6 literal as the URL parser serializes it (no dotted tail). */
function parseIpv6(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  const [head = "", tail, extra] = host.slice(1, -1).split("::");
  if (extra !== undefined) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = 8 - left.length - right.length;
  if (tail === undefined ? zeros !== 0 : zeros < 0) return undefined;
  const all = [...left, ...Array<number>(zeros).fill(0), ...right];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

const embedded = (high: number, low: number) => ((high << 16) | low) >>> 0;

function ipv6Kind(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return "an unspecified address";
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return "a loopback address";
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), the old compatible form (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d).
  if (upperZero && (g5 === 0xffff || g5 === 0)) return ipv4Kind(embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Kind(embedded(g6, g7));
  // 6to4 (2002:a.b.c.d::/48) carries the IPv4 address it tunnels to.
  if (g0 === 0x2002) return ipv4Kind(embedded(g1, g2));
  if ((g0 & 0xfe00) === 0xfc00) return "a private (unique local) address";
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address";
  if ((g0 & 0xffc0) === 0xfec0 || (g0 & 0xff00) === 0xff00) return "a reserved address";
  if (g0 === 0x2001 && g1 === 0x0db8) return "a reserved address";
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return "a reserved address";
  return null;
}

/** Why `host` (a parsed URL's hostname) is not a public host, or null when it is. */
function hostRefusal(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "is localhost";
  const v6 = parseIpv6(name);
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
