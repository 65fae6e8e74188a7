import * as webhooks from "../webhooks/service";
import { none, verb } from "./verb";

/**
 * POST /api/v1/webhooks/{id}/rotate-secret, the account page's "Rotate secret": a new secret, shown once;
 * the previous one signs too for 24 h. Managing webhooks raises no event.
 */
export const rotateWebhookSecret = verb({
  writes: true,
  needsMax: true,
  run: webhooks.rotateWebhookSecret,
  events: none,
});
