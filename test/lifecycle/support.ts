import { env } from "cloudflare:workers";
import type { AccountCaller } from "../../src/control/caller";
import { sha256Hex } from "../../src/domain/crypto";
import { call, json, maxUser } from "../helpers";

/** A Max user whose account is in `timeZone`, with its key as a caller for calling verbs directly (as MCP does). */
export async function zonedUser(timeZone = "UTC") {
  const user = await maxUser("life");
  if (timeZone !== "UTC") {
    const res = await call("/account", { method: "PATCH", token: user.session, body: { timeZone } });
    if (res.status !== 200) throw new Error(`timeZone: ${res.status} ${await res.text()}`);
  }
  // The user's key as a task verb's caller, for tests that call the verbs directly.
  const caller: AccountCaller = {
    env,
    accountId: user.accountId,
    credential: { kind: "key", keyHash: await sha256Hex(user.key) },
  };
  return { ...user, caller };
}

export const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  call(`/api/v1/tasks/${id}`, { method: "PATCH", token: key, body, headers });

export async function listAll(key: string, query = "") {
  const res = await call(`/api/v1/tasks${query}`, { token: key });
  if (res.status !== 200) throw new Error(`list: ${res.status} ${await res.text()}`);
  return json(res);
}

export const nextIdFrom = (res: Response) =>
  /^<\/api\/v1\/tasks\/([^>]+)>; rel="next-occurrence"$/.exec(res.headers.get("Link") ?? "")?.[1];
