import { fromBase64url } from "../../domain/crypto";
import { AppError } from "../../domain/errors";
import { PushSubscriptionInput } from "../../domain/push/subscription";
import { addPushSubscription as add } from "../push/subscriptions";
import { none, verb } from "./verb";

type Args = Parameters<typeof add>[1];

/**
 * POST /api/v1/push-subscriptions and the tasks page's /account/push-subscriptions ("Notify me on this device").
 * Needs Max, as webhooks do; a device stays stored when Max lapses, and gets pushes again when it is back.
 */
export const addPushSubscription = verb({
  writes: true,
  needsMax: true,
  input: { input: PushSubscriptionInput },
  prepare: async (args: Args) => {
    await checkPoint(args.input.keys.p256dh);
    return args;
  },
  run: add,
  events: none,
});

/** The schema holds the key to 65 bytes; only WebCrypto can say it is a point on P-256, and it awaits. */
async function checkPoint(p256dh: string): Promise<void> {
  try {
    await crypto.subtle.importKey("raw", fromBase64url(p256dh), { name: "ECDH", namedCurve: "P-256" }, false, []);
  } catch {
    const message = "must be the device's P-256 public key: these 65 bytes are not a point on the curve";
    throw new AppError("validation_failed", `keys.p256dh ${message}.`, [{ path: "keys.p256dh", message }]);
  }
}
