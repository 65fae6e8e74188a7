import { env, exports } from "cloudflare:workers";
import { BASE } from "../helpers";
import { accountObjectId } from "../../src/control/account-client";

/** A socket the test opened on the stream, with what it has heard so far. */
export interface Opened {
  res: Response;
  ws: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  /** The next message not yet taken, waiting up to `ms`; undefined if none came. */
  next(ms?: number): Promise<any>;
}

export interface OpenOptions {
  token?: string;
  /** Offer the credential as the `todo.bearer.<token>` subprotocol instead of the Authorization header. */
  asProtocol?: boolean;
  since?: string;
  origin?: string;
  path?: string;
}

/** Opens GET /api/v1/stream (or `path`) as a client would; `ws` is set only for a 101. */
export async function openStream(options: OpenOptions = {}): Promise<Opened> {
  const headers = new Headers({ Upgrade: "websocket" });
  if (options.token && options.asProtocol)
    headers.set("Sec-WebSocket-Protocol", `todo.v1, todo.bearer.${options.token}`);
  else if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.origin) headers.set("Origin", options.origin);
  const query = options.since ? `?since=${encodeURIComponent(options.since)}` : "";
  const res = await exports.default.fetch(
    new Request(`${BASE}${options.path ?? "/api/v1/stream"}${query}`, { headers }),
  );
  const ws = res.webSocket!;
  const messages: any[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  let closed: Promise<{ code: number; reason: string }> = Promise.resolve({ code: 0, reason: "" });
  if (ws) {
    closed = new Promise((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })));
    ws.addEventListener("message", (e) => {
      messages.push(typeof e.data === "string" && e.data.startsWith("{") ? JSON.parse(e.data) : e.data);
      wake?.();
    });
    ws.accept();
  }
  const next = async (ms = 2000) => {
    const deadline = Date.now() + ms;
    while (taken >= messages.length && Date.now() < deadline)
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
    return taken < messages.length ? messages[taken++] : undefined;
  };
  return { res, ws, messages, closed, next };
}

/** The account's object, for runInDurableObject. */
export const objectOf = (accountId: string) => env.ACCOUNTS.get(accountObjectId(env, accountId));
