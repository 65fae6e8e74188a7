import type { ClientRegistrationCallbackOptions } from "@cloudflare/workers-oauth-provider";
import { plainClientName } from "../control/connections/client-name";
import { MAX_CLIENT_NAME } from "../control/connections/service";
import { readWithin } from "../transport/body";

/**
 * Dynamic client registration (RFC 7591), answered by the provider: our rules on what a client may
 * register. Open registration makes every field an attacker's text.
 */

/** A registration larger than this (JSON text) is refused: client metadata is a few hundred bytes. */
const MAX_REGISTRATION_CHARS = 8192;

/** The provider's clientRegistrationCallback: a description refuses the registration (400). */
export function registrationRefusal({ clientMetadata }: ClientRegistrationCallbackOptions) {
  const name = clientMetadata.client_name;
  if (typeof name === "string" && name.length > MAX_CLIENT_NAME)
    return { description: `client_name must be at most ${MAX_CLIENT_NAME} characters` };
  if (JSON.stringify(clientMetadata).length > MAX_REGISTRATION_CHARS)
    return { description: `client metadata must be at most ${MAX_REGISTRATION_CHARS} characters of JSON` };
}

/**
 * The registration request with its client_name made plain (client-name.ts), so the provider stores
 * and echoes the name a person will see; no name at all when nothing is left (the pages then show the
 * client id). Any request this cannot read as a JSON object goes on unchanged, for the provider to judge.
 */
export async function withPlainClientName(request: Request): Promise<Request> {
  const body = request.clone().body;
  const bytes = body && (await readWithin(body, MAX_REGISTRATION_CHARS * 4));
  if (!bytes) return request;
  let metadata: unknown;
  try {
    metadata = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return request;
  }
  if (typeof metadata !== "object" || metadata === null || !("client_name" in metadata)) return request;
  const fields = metadata as Record<string, unknown>;
  if (typeof fields.client_name !== "string") return request;
  const name = plainClientName(fields.client_name);
  if (name === fields.client_name) return request;
  if (name) fields.client_name = name;
  else delete fields.client_name;
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(fields) });
}
