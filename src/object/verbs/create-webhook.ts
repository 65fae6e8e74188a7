import { WebhookInput } from "../../domain/webhooks/schemas";
import * as webhooks from "../webhooks/service";
import { none, verb } from "./verb";

/** POST /api/v1/webhooks: a webhook and its secret (shown once). Managing webhooks raises no event. */
export const createWebhook = verb({
  writes: true,
  needsMax: true,
  input: { input: WebhookInput },
  run: webhooks.createWebhook,
  events: none,
});
