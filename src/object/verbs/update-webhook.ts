import { WebhookPatch } from "../../domain/webhooks/schemas";
import * as webhooks from "../webhooks/service";
import { none, verb } from "./verb";

/** PATCH /api/v1/webhooks/{id}, the account page's switch. Managing webhooks raises no event. */
export const updateWebhook = verb({
  writes: true,
  needsMax: true,
  input: { patch: WebhookPatch },
  run: webhooks.updateWebhook,
  events: none,
});
