/**
 * What the service worker (web/push-sw.ts) shows for a push message: pure, so a unit test pins it
 * (test/web/push-message.test.ts). The server sends `{ type: "task.reminder", task, url }`; any other type, or a
 * body that is not that JSON, still gets a notification, because a subscription made with `userVisibleOnly`
 * must show one for every push (Chrome otherwise shows its own "site updated in the background").
 */

import type { PushMessage } from "../src/domain/push/message";

export interface ShownNotification {
  title: string;
  options: { body: string; tag?: string; data: { url: string } };
}

const HOME = "/tasks";
const GENERIC: ShownNotification = { title: "Tasks", options: { body: "Open your tasks.", data: { url: HOME } } };

/** Only a path on this site is opened on a click: a message never sends the person elsewhere. */
const localPath = (url: unknown) => (typeof url === "string" && /^\/(?![/\\])/.test(url) ? url : HOME);

/**
 * When a task is due, in the device's locale: a date ("2026-12-01") and a wall time ("2026-12-01T09:00:00", the
 * account zone's clock) are shown as written, not moved into the device's zone; an instant with an offset is shown
 * in the device's zone.
 */
export function dueText(due: string, locale?: string): string | null {
  const wall = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$/.exec(due);
  if (wall) {
    const [y, m, d, hh, mm] = wall.slice(1).map((part) => Number(part ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const at = new Date(Date.UTC(y, m - 1, d, hh, mm));
    const time = wall[4] === undefined ? {} : { hour: "numeric", minute: "2-digit" };
    return new Intl.DateTimeFormat(locale, {
      weekday: "short",
      month: "short",
      day: "numeric",
      ...time,
      timeZone: "UTC",
    } as Intl.DateTimeFormatOptions).format(at);
  }
  const instant = new Date(due);
  if (Number.isNaN(instant.getTime())) return null;
  return new Intl.DateTimeFormat(locale, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(instant);
}

/** The notification for a push message's decrypted text (`PushMessageData.text()`), or the generic one. */
export function notificationOf(text: string | null | undefined, locale?: string): ShownNotification {
  let message: unknown;
  try {
    message = JSON.parse(text ?? "");
  } catch {
    return GENERIC;
  }
  // The server's declaration of the message (src/domain/push/message.ts), read defensively: any field may be missing.
  const { type, task, url } = (message ?? {}) as Partial<PushMessage>;
  if (type !== "task.reminder" || !task || typeof task.title !== "string" || typeof task.id !== "string")
    return GENERIC;
  const due = typeof task.due === "string" ? dueText(task.due, locale) : null;
  return {
    title: task.title,
    options: { body: due ? `Due ${due}` : "Reminder", tag: task.id, data: { url: localPath(url) } },
  };
}
