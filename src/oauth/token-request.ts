import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { ClientLookupTimeout, clientIdRefusal, tokenRequestClientIds, withinLookupTime } from "./client-id";
import { oversized } from "../transport/oauth-paths";

/**
 * What the token endpoint refuses before the provider reads a request: ids or tokens longer than any of
 * ours (KV key limits, paths.ts), and a client_id URL the Worker must not fetch or whose document is
 * slow (client-id.ts). Answers in the provider's own shape, RFC 6749 §5.2.
 */

export const tokenError = (status: number, error: string, description: string) =>
  Response.json(
    { error, error_description: description },
    { status, headers: { "Cache-Control": "no-store", "Content-Type": "application/json" } },
  );

/** The request's form (a clone's: the provider reads the body itself), or undefined when it is not one. */
export async function tokenForm(request: Request): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) return undefined;
  return new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
}

const TOKEN_FIELDS = ["client_id", "code", "refresh_token", "token", "subject_token"];

/** A refusal for a POST to the token endpoint, or undefined to let the provider answer. */
export async function screenTokenRequest(
  request: Request,
  form: URLSearchParams | undefined,
  oauth: OAuthHelpers,
): Promise<Response | undefined> {
  const authorization = request.headers.get("authorization");
  if (oversized(authorization) || TOKEN_FIELDS.some((name) => form?.getAll(name).some(oversized)))
    return tokenError(400, "invalid_request", "A client_id or token is too long.");
  for (const clientId of tokenRequestClientIds(form ?? new URLSearchParams(), authorization)) {
    const refusal = clientIdRefusal(clientId);
    if (refusal)
      return tokenError(401, "invalid_client", `This client_id is not a URL this service fetches. ${refusal}`);
    if (!clientId.includes(":")) continue;
    try {
      // A first look-up within the time limit; the provider's own then finds the document fetched
      // (or cached, as the document's Cache-Control allows).
      await withinLookupTime(oauth.lookupClient(clientId));
    } catch (e) {
      if (e instanceof ClientLookupTimeout) return tokenError(401, "invalid_client", e.message);
      // Anything else the provider reports itself, in its own words.
    }
  }
  return undefined;
}
