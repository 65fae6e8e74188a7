import { notificationOf } from "./push-message";

/**
 * The service worker of the tasks page's "Notify me on this device" (web/tasks/push.ts registers it at /push-sw.js,
 * scope /): it shows a reminder the account's object pushed (docs/account-page.md), and a click on it brings an open
 * /tasks tab of this site forward, or opens one. It has no fetch handler: it never stands between a page and the
 * network. Bundled by scripts/build-web.mjs into static/push-sw.js (a classic script, no imports at run time).
 */

// The service worker's own types, as far as this file uses them: lib "webworker" cannot sit beside "dom" in
// web/tsconfig.json, whose other files are pages.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  readonly clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
}
const worker = self as unknown as ServiceWorkerScope;

// A new version takes over at once: there is no cached page state for an old one to keep consistent.
worker.addEventListener("install", (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener("push", (event) => {
  let text: string | null = null;
  try {
    text = event.data?.text() ?? null;
  } catch {
    // Undecodable: the generic notification below.
  }
  const { title, options } = notificationOf(text);
  event.waitUntil(worker.registration.showNotification(title, options));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: string } | null;
  const target = new URL(data?.url ?? "/tasks", worker.location.origin);
  event.waitUntil(
    (async () => {
      const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = tabs.find((tab) => {
        const url = new URL(tab.url);
        return url.origin === target.origin && url.pathname === "/tasks";
      });
      if (open) await open.focus();
      else await worker.clients.openWindow(target.href);
    })(),
  );
});
