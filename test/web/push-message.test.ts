import { describe, expect, it } from "vitest";
import { dueText, notificationOf } from "../../web/push-message";

/** What the service worker shows for a pushed message (web/push-sw.ts): the reminder, or a generic notice. */
describe("notificationOf", () => {
  const reminder = (task: Record<string, unknown>, url: unknown = "/tasks") =>
    JSON.stringify({ type: "task.reminder", task: { id: "t1", reminder: "2026-12-01T08:45:00Z", ...task }, url });

  it("shows the task's title, when it is due in the locale, tagged with its id", () => {
    const shown = notificationOf(reminder({ title: "Call Bob", due: "2026-12-01T09:00:00" }), "en-US");
    expect(shown).toEqual({
      title: "Call Bob",
      options: { body: "Due Tue, Dec 1, 9:00 AM", tag: "t1", data: { url: "/tasks" } },
    });
    expect(notificationOf(reminder({ title: "Call Bob", due: "2026-12-01T09:00:00" }), "de-DE").options.body).toBe(
      "Due Di., 1. Dez., 9:00",
    );
  });

  it("a date alone is shown without a time, and no due date says Reminder", () => {
    expect(notificationOf(reminder({ title: "Rent", due: "2026-12-01" }), "en-US").options.body).toBe("Due Tue, Dec 1");
    expect(notificationOf(reminder({ title: "Rent", due: null }), "en-US").options.body).toBe("Reminder");
  });

  it("opens only a path on this site", () => {
    expect(notificationOf(reminder({ title: "A" }, "/tasks#today")).options.data.url).toBe("/tasks#today");
    for (const url of ["https://evil.example/", "//evil.example", "/\\evil.example", 5])
      expect(notificationOf(reminder({ title: "A" }, url)).options.data.url).toBe("/tasks");
  });

  it.each([
    ["another type", JSON.stringify({ type: "task.updated", task: { id: "t1", title: "A" } })],
    ["no task", JSON.stringify({ type: "task.reminder" })],
    ["not JSON", "hello"],
    ["no data", null],
  ])("%s gets the generic notification (a push must show one)", (_, text) => {
    expect(notificationOf(text)).toEqual({
      title: "Tasks",
      options: { body: "Open your tasks.", data: { url: "/tasks" } },
    });
  });
});

describe("dueText", () => {
  it("shows an instant with an offset in the device's zone, and refuses nonsense", () => {
    expect(dueText("2026-12-01T09:00:00Z", "en-US")).toMatch(/Dec/);
    expect(dueText("tomorrow", "en-US")).toBeNull();
  });
});
