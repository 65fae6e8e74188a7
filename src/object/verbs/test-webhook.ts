import * as webhooks from "../webhooks/service";
import { verb } from "./verb";

/**
 * POST /api/v1/webhooks/{id}/test: a `webhook.test` event to this webhook alone, enabled or not
 * (object/webhooks/outbox.ts), under the id the verb answers with.
 */
export const testWebhook = verb({
  writes: true,
  needsMax: true,
  run: webhooks.testWebhook,
  events: {
    raises: ["webhook.test"],
    after: (_db, { id }, { eventId }) => ({
      events: [
        { type: "webhook.test", id: eventId, data: { webhookId: id, message: "A test event, sent on request." } },
      ],
      tasks: [],
    }),
  },
});
