import { env } from "cloudflare:workers";
import { createDb } from "../../src/db/client";
import type { ServiceContext } from "../../src/domain/context";
import { call, json, maxUser } from "../helpers";

/** A Max user whose account is in `timeZone`, with a domain context for calling verbs directly (as MCP does). */
export async function zonedUser(timeZone = "UTC") {
  const user = await maxUser("life");
  if (timeZone !== "UTC") {
    const res = await call("/account", { method: "PATCH", token: user.session, body: { timeZone } });
    if (res.status !== 200) throw new Error(`timeZone: ${res.status} ${await res.text()}`);
  }
  const ctx: ServiceContext = { db: createDb(env.DB), actor: { accountId: user.accountId, maxActive: true, timeZone } };
  return { ...user, ctx };
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
