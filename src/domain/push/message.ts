/**
 * What a device's service worker receives for a reminder, once decrypted (web/push-sw.ts shows it): the task's
 * title and times, and the page to open. Small by design: the push library pads every message to 4,096 bytes,
 * and a title is at most 500 characters.
 */
export interface PushMessage {
  type: "task.reminder";
  task: { id: string; title: string; due: string | null; reminder: string | null };
  url: string;
}

/** From a fired reminder's task (its event's `data`); no import of the task's schema, so web/ can read this type. */
export const reminderMessage = (task: {
  id: string;
  title: string;
  due?: string | null;
  reminder?: string | null;
}): PushMessage => ({
  type: "task.reminder",
  task: { id: task.id, title: task.title, due: task.due ?? null, reminder: task.reminder ?? null },
  url: "/tasks",
});
