import { toBase64url } from "../domain/crypto";

/** Conditional GETs: a strong ETag of a body, and If-None-Match (calendar packs, the task feed). */

/** Strong ETag: the first 128 bits of the body's SHA-256, base64url. */
export async function etagOf(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  return `"${toBase64url(digest.subarray(0, 16))}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/` prefixes are ignored. */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const candidate = tag.trim().replace(/^W\//, "");
    return candidate === "*" || candidate === etag;
  });
}
