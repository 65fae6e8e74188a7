import * as webhooks from "../webhooks/service";
import { none, verb } from "./verb";

/** DELETE /api/v1/webhooks/{id}, the account page: with its pending deliveries and log. Raises no event. */
export const deleteWebhook = verb({ writes: true, needsMax: true, run: webhooks.deleteWebhook, events: none });
