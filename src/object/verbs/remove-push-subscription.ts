import { removePushSubscription as remove } from "../push/subscriptions";
import { none, verb } from "./verb";

/** DELETE /api/v1/push-subscriptions/{id} and /account/push-subscriptions/{id}, "Stop notifications on this device": with what waited to be pushed. */
export const removePushSubscription = verb({ writes: true, needsMax: true, run: remove, events: none });
