// Web Push for the browser suites (test/browser/push.mjs): a VAPID key pair for `wrangler dev`, the browser's real
// subscribe tried in a profile of its own, and the stand-in for a push service at the browser's boundary.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { vapidKeys as makeVapidPair } from "../../scripts/vapid-keys.mjs";

/** The vars of a deployment with push on: a pair made as an operator makes one (scripts/vapid-keys.mjs). */
export function vapidKeys() {
  const { publicKey, privateKey } = makeVapidPair();
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: "mailto:ops@example.com" };
}

/** Where the stand-in keeps its subscription (in the page's localStorage), so a reload finds it. */
export const FAKE_STORE = "test.fakePushSubscription";

/** The stand-in for a push service (test/browser/push.mjs says when and why): runs in every page of a context before its own scripts. */
export function fakePushService() {
  const STORE = "test.fakePushSubscription"; // FAKE_STORE: the function runs in the page, without this module
  const b64url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const bytesOf = (key) =>
    typeof key === "string"
      ? Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))
      : new Uint8Array(
          ArrayBuffer.isView(key) ? key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength) : key,
        );
  const revive = (saved) =>
    saved && {
      endpoint: saved.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: bytesOf(saved.serverKey).buffer },
      toJSON: () => ({ endpoint: saved.endpoint, expirationTime: null, keys: saved.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(STORE);
        return true;
      },
    };
  PushManager.prototype.getSubscription = async () => revive(JSON.parse(localStorage.getItem(STORE) ?? "null"));
  PushManager.prototype.subscribe = async function (options) {
    const current = await this.getSubscription();
    if (current) return current;
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const saved = {
      endpoint: `https://fcm.googleapis.com/fcm/send/${b64url(crypto.getRandomValues(new Uint8Array(24)))}`,
      serverKey: b64url(bytesOf(options.applicationServerKey)),
      keys: {
        p256dh: b64url(await crypto.subtle.exportKey("raw", pair.publicKey)),
        auth: b64url(crypto.getRandomValues(new Uint8Array(16))),
      },
    };
    localStorage.setItem(STORE, JSON.stringify(saved));
    return revive(saved);
  };
}

/**
 * The browser's real subscribe with the deployment's key, in a profile of its own on disk: a context from
 * `browser.newContext()` is incognito, where Chrome refuses push outright. Resolves with the endpoint or the error.
 */
export async function trySubscribe(chromiumPath, base, key) {
  const context = await chromium.launchPersistentContext(await mkdtemp(join(tmpdir(), "push-profile-")), {
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    await context.grantPermissions(["notifications"], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/tasks`);
    return await page.evaluate(async (applicationServerKey) => {
      const registration = await navigator.serviceWorker.register("/push-sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const attempt = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no answer within 20 s")), 20_000));
      try {
        const subscription = await Promise.race([attempt, timeout]);
        const { endpoint } = subscription.toJSON();
        await subscription.unsubscribe();
        return { endpoint };
      } catch (error) {
        return { error: `${error.name}: ${error.message}` };
      }
    }, key);
  } finally {
    await context.close();
  }
}

/** This browser's subscription endpoint as the page sees it, or null. */
export const browserEndpoint = (page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return (await registration?.pushManager.getSubscription())?.endpoint ?? null;
  });
