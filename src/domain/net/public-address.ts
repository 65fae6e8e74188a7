/**
 * Whether the Worker may send a request to a URL a user chose (a webhook endpoint): https, no
 * credentials in it, and a host that is a name other than `localhost` or an IP literal in a public
 * range. Pure, no DNS: a public name that resolves to a private address is stopped by Cloudflare's
 * network (`global_fetch_strictly_public`), not here (docs/security.md).
 *
 * The WHATWG URL parser has already put every spelling of an address in one form: `2130706433`,
 * `0x7f.1`, `0177.0.0.1` and `127.1` are all `127.0.0.1`; `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`.
 * So only dotted quads and compressed IPv6 groups need reading here.
 */

/** [first address, prefix length, what it is]: IANA special-purpose ranges (RFC 6890 and updates). */
const V4_RANGES: [string, number, string][] = [
  ["0.0.0.0", 8, "an unspecified address"],
  ["10.0.0.0", 8, "a private address"],
  ["100.64.0.0", 10, "a carrier-grade NAT address"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address"],
  ["172.16.0.0", 12, "a private address"],
  ["192.0.0.0", 24, "a reserved address"],
  ["192.0.2.0", 24, "a documentation address"],
  ["192.168.0.0", 16, "a private address"],
  ["198.18.0.0", 15, "a benchmarking address"],
  ["198.51.100.0", 24, "a documentation address"],
  ["203.0.113.0", 24, "a documentation address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["240.0.0.0", 4, "a reserved address"],
];

/** A dotted quad as a 32-bit number; undefined for anything else (a name). */
function ipv4(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((n, o) => n * 256 + o, 0);
}

const V4_TABLE = V4_RANGES.map(([first, bits, kind]) => ({ first: ipv4(first)!, size: 2 ** (32 - bits), kind }));

function ipv4Kind(address: number): string | null {
  for (const { first, size, kind } of V4_TABLE) if (address >= first && address < first + size) return kind;
  return null;
}

/** The eight 16-bit groups of a bracketed IPv6 literal (as the URL parser writes it); undefined for a name. */
function ipv6(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  const halves = host.slice(1, -1).split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const gap = 8 - head.length - tail.length;
  if (gap < 0 || (halves.length === 1 && gap !== 0)) return undefined;
  const all = [...head, ...new Array<number>(gap).fill(0), ...tail];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

const v4Of = (high: number, low: number) => high * 65536 + low;

function ipv6Kind(g: number[]): string | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, l = 0] = g;
  const zeroTo80 = a === 0 && b === 0 && c === 0 && d === 0 && e === 0;
  if (zeroTo80 && f === 0 && h === 0 && l === 0) return "an unspecified address";
  if (zeroTo80 && f === 0 && h === 0 && l === 1) return "a loopback address";
  // IPv4 carried in IPv6: mapped (::ffff:0:0/96), the old compatible form (::/96), NAT64 (64:ff9b::/96), 6to4.
  if (zeroTo80 && (f === 0xffff || f === 0)) return ipv4Kind(v4Of(h, l));
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return ipv4Kind(v4Of(h, l));
  if (a === 0x2002) return ipv4Kind(v4Of(b, c));
  if ((a & 0xfe00) === 0xfc00) return "a private address";
  if ((a & 0xffc0) === 0xfe80) return "a link-local address";
  if ((a & 0xffc0) === 0xfec0) return "a site-local address";
  if ((a & 0xff00) === 0xff00) return "a multicast address";
  if (a === 0x2001 && b === 0x0db8) return "a documentation address";
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return "a discard address";
  return null;
}

/** The host's kind when it is not a public address, in words; null when it is (or is a public name). */
export function hostRefusal(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "localhost";
  const v4 = ipv4(host);
  if (v4 !== undefined) return ipv4Kind(v4);
  const v6 = ipv6(host);
  if (v6 !== undefined) return ipv6Kind(v6) ?? null;
  return null;
}

/** Why the Worker must not send a request to `url`, for the caller to read; null when it may. */
export function refusalOf(url: URL): string | null {
  if (url.protocol !== "https:") return "must use https";
  if (url.username || url.password) return "must not contain a user name or password";
  const refused = hostRefusal(url.hostname);
  if (!refused) return null;
  return refused === "localhost" ? "must not point to localhost" : `must not point to ${refused} (${url.hostname})`;
}
