import { fromBase64url } from "../../src/domain/crypto";
import { tasksApi } from "./api";

/**
 * "Notify me on this device" in the browser: the service worker (web/push-sw.ts, served at /push-sw.js with scope
 * /), its push subscription made with the deployment's VAPID public key, and the account's stored copy of it
 * (/account/push-subscriptions, one row per device, found again by its endpoint).
 */

const WORKER = "/push-sw.js";
const SCOPE = "/";

export const pushSupported = () =>
  "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;

/** The VAPID public key (raw P-256 point), or null when this deployment sends no pushes (`publicKey: null`). */
export async function publicKey(): Promise<Uint8Array<ArrayBuffer> | null> {
  const key = await tasksApi.pushPublicKey();
  if (key === null) return null;
  return fromBase64url(key);
}

async function subscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

/**
 * On when this browser holds a subscription made with the deployment's current key and the account has it. One the
 * server dropped (a 410), or made with a key pair since replaced (docs/deploy.md), is off: turning it on again mends it.
 */
export async function deviceIsOn(key: Uint8Array): Promise<boolean> {
  const mine = await subscription();
  if (!mine || !sameKey(mine.options.applicationServerKey, key)) return false;
  return (await tasksApi.pushDevices()).some((device) => device.endpoint === mine.endpoint);
}

/**
 * Asks for permission, registers the worker, subscribes and stores the subscription. Resolves with the permission
 * when it is not granted ("denied": blocked; "default": the prompt was dismissed), with "granted" when stored.
 */
export async function turnOn(key: Uint8Array<ArrayBuffer>): Promise<NotificationPermission> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission;
  await navigator.serviceWorker.register(WORKER, { scope: SCOPE });
  // subscribe() needs an active worker.
  const registration = await navigator.serviceWorker.ready;
  let mine = await registration.pushManager.getSubscription();
  // Made with a key the deployment no longer has: the push service would refuse the server's pushes.
  if (mine && !sameKey(mine.options.applicationServerKey, key)) {
    await mine.unsubscribe();
    mine = null;
  }
  mine ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await tasksApi.addPushDevice(mine.toJSON());
  return permission;
}

/** Forgets this device on the account, then in the browser (a failed request leaves both as they were). */
export async function turnOff(): Promise<void> {
  const mine = await subscription();
  if (!mine) return;
  const stored = (await tasksApi.pushDevices()).find((device) => device.endpoint === mine.endpoint);
  if (stored) await tasksApi.removePushDevice(stored.id);
  await mine.unsubscribe();
}
