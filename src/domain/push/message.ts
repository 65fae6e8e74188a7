import type { Task } from "../tasks/schemas";

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

export const reminderMessage = (task: Pick<Task, "id" | "title" | "due" | "reminder">): PushMessage => ({
  type: "task.reminder",
  task: { id: task.id, title: task.title, due: task.due ?? null, reminder: task.reminder ?? null },
  url: "/tasks",
});
