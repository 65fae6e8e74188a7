/**
 * The session token lives in sessionStorage (this tab only, gone when it closes) so a reload
 * keeps you signed in. If storage is unavailable it lives in memory. Never in a URL or cookie.
 */
const STORAGE_KEY = "todo.session";
let memory: string | null = null;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const session = {
  get(): string | null {
    try {
      return storage()?.getItem(STORAGE_KEY) ?? memory;
    } catch {
      return memory;
    }
  },
  set(token: string): void {
    memory = token;
    try {
      storage()?.setItem(STORAGE_KEY, token);
    } catch {
      // Memory only: the session ends on reload.
    }
  },
  clear(): void {
    memory = null;
    try {
      storage()?.removeItem(STORAGE_KEY);
    } catch {
      // Nothing stored.
    }
  },
};
