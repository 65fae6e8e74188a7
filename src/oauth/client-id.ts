import { publicUrlRefusal } from "../domain/net/public-address";

/**
 * A client_id that is a URL makes the provider fetch it (a Client ID Metadata Document). Before the
 * provider sees one, the Worker refuses a URL it must not fetch (publicUrlRefusal: https, public host),
 * and gives the provider's first look-up of the document CLIENT_LOOKUP_MS, where the library waits 10 s.
 * Its 5 KB cap on the document stays. Registered client ids (the provider's random strings) have no
 * colon and pass untouched.
 */

export const CLIENT_LOOKUP_MS = 3_000;

/** Why a client_id must not be fetched, or null (not a URL, or a public https URL). */
export function clientIdRefusal(clientId: string): string | null {
  if (!clientId.includes(":")) return null;
  return publicUrlRefusal(clientId);
}

const base64urlJson = (part: string | undefined): unknown => {
  try {
    return JSON.parse(atob((part ?? "").replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return undefined;
  }
};

/** RFC 6749 §2.3.1: Basic credentials are form-encoded, then base64. */
function basicClientId(authorization: string | null): string | undefined {
  const match = /^Basic[\t ]+(\S+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return undefined;
  try {
    const user = atob(match[1]).split(":")[0] ?? "";
    return decodeURIComponent(user.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * Every client id a token request names, as the provider may read it: `client_id`, the Basic user, and
 * for a client assertion without `client_id`, the assertion's `iss` (the provider looks that up too).
 */
export function tokenRequestClientIds(form: URLSearchParams, authorization: string | null): string[] {
  const ids = form.getAll("client_id");
  const basic = basicClientId(authorization);
  if (basic) ids.push(basic);
  const assertion = form.get("client_assertion");
  if (assertion && ids.length === 0) {
    const claims = base64urlJson(assertion.split(".")[1]) as { iss?: unknown } | undefined;
    if (typeof claims?.iss === "string") ids.push(claims.iss);
  }
  return ids;
}

/** Thrown when the client's document took longer than CLIENT_LOOKUP_MS. */
export class ClientLookupTimeout extends Error {
  constructor() {
    super(`The app's client metadata document did not answer within ${CLIENT_LOOKUP_MS / 1000} seconds.`);
    this.name = "ClientLookupTimeout";
  }
}

/**
 * `work` (which looks a client up), or ClientLookupTimeout after CLIENT_LOOKUP_MS. Only for work that
 * writes nothing: the abandoned look-up ends with the request.
 */
export async function withinLookupTime<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ClientLookupTimeout()), CLIENT_LOOKUP_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
