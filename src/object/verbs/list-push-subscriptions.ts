import { listPushSubscriptions as list } from "../push/subscriptions";
import { verb } from "./verb";

/** GET /api/v1/push-subscriptions and /account/push-subscriptions (the tasks page): the devices that get reminders as notifications. */
export const listPushSubscriptions = verb({ writes: false, needsMax: true, run: list });
