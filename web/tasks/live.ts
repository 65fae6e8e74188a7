import { SIGNED_IN_MARKER } from "../session";
import type { Task, TaskList } from "./api";

/**
 * The page's live stream (GET /account/stream, docs/events.md "The stream"): the account's object pushes
 * each committed change at once. The session goes in the subprotocol list (a browser cannot set headers on
 * a WebSocket; never in the URL). While the socket is not open, the store polls `since` as before.
 */

export type Pushed =
  | {
      type: "sync";
      serverTime: string;
      data: { tasks: Task[]; deleted: { id: string }[]; lists: TaskList[]; deletedLists: { id: string }[] };
    }
  | { type: `task.${string}`; serverTime: string; data: Task & { next?: Task } }
  | { type: `list.${string}`; serverTime: string; data: TaskList }
  | { type: "error"; serverTime: string; data: { code: string; detail: string } };

export interface LiveHandlers {
  token: () => string | null;
  /** The `serverTime` to resume from: what the page last synced. */
  since: () => string | undefined;
  message: (message: Pushed) => void;
  /** The socket closed for good (4401 revoked, 4403 Max lapsed, 4410 sync expired): a REST sync tells why. */
  ended: (code: number) => void;
}

/** Close codes after which reconnecting cannot help (src/object/stream.ts CLOSE). */
const FINAL = new Set([4401, 4403, 4410]);
const HEARTBEAT_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;

let socket: WebSocket | null = null;
/** WebSocket.OPEN, as a number: a page whose WebSocket is missing or replaced still polls. */
const OPEN = 1;
export const liveOpen = () => socket !== null && socket.readyState === OPEN;

/** Opens the stream, and opens it again after a drop (1 s, doubling to 30 s); polling covers the gaps. */
export function connectLive(handlers: LiveHandlers, backoff = 1000): void {
  const token = handlers.token();
  if (!token || typeof WebSocket !== "function") return;
  const url = new URL("/account/stream", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const since = handlers.since();
  if (since) url.searchParams.set("since", since);
  let ws: WebSocket;
  try {
    // The page's session is its cookie, which the browser sends with the upgrade (and the server checks the upgrade's
    // Origin); `token` is only a signed-in marker then, never a credential to offer (web/session.ts).
    ws = new WebSocket(url, token === SIGNED_IN_MARKER ? ["todo.v1"] : ["todo.v1", `todo.bearer.${token}`]);
  } catch {
    return;
  }
  socket = ws;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  ws.addEventListener("open", () => {
    backoff = 1000;
    // Answered by the runtime (setWebSocketAutoResponse): keeps proxies from dropping an idle socket.
    heartbeat = setInterval(() => ws.send("ping"), HEARTBEAT_MS);
  });
  ws.addEventListener("message", (event) => {
    if (typeof event.data !== "string" || !event.data.startsWith("{")) return;
    handlers.message(JSON.parse(event.data) as Pushed);
  });
  ws.addEventListener("close", (event) => {
    clearInterval(heartbeat);
    if (socket === ws) socket = null;
    if (FINAL.has(event.code)) return handlers.ended(event.code);
    setTimeout(() => connectLive(handlers, Math.min(backoff * 2, MAX_BACKOFF_MS)), backoff);
  });
}
