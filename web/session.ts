/**
 * The session is an HttpOnly cookie the page cannot read (src/transport/session-cookie.ts): every call sends it
 * (web/api.ts, credentials "same-origin"), so a new tab or a bookmark of /tasks stays signed in. The page knows it
 * is signed in from a second cookie with no secret in it, `todo_signed_in`, that the server sets and clears beside
 * the session. `get()` returns a marker, never a token: callers hand it on as they did, and nothing sends it.
 */
const SIGNED_IN = /(?:^|;\s*)(?:__Host-)?todo_signed_in=1(?:;|$)/;
export const SIGNED_IN_MARKER = "cookie";
let ended = false;

export const session = {
  get(): string | null {
    return !ended && SIGNED_IN.test(document.cookie) ? SIGNED_IN_MARKER : null;
  },
  /** After a sign-in: the server has set the cookies; the token in the answer is not kept. */
  set(_token?: string): void {
    ended = false;
  },
  /**
   * After a sign-out or a 401: signed out in this page. The server clears both cookies on sign-out; a hint left
   * by a session that ended elsewhere costs the next visit one 401, which says the session has ended.
   */
  clear(): void {
    ended = true;
  },
};

/**
 * Where to go after signing in: `?next=` when it is a path on this site (the tasks page links to `/?next=/tasks`).
 * Anything else (another origin, `//host`, a backslash some browsers read as a slash) is ignored: no open redirect.
 */
export function returnPath(): string | null {
  const next = new URLSearchParams(window.location.search).get("next");
  if (!next || !/^\/(?![/\\])/.test(next) || next.includes("\\")) return null;
  const url = new URL(next, window.location.origin);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
}
