import * as webhooks from "../webhooks/service";
import { verb } from "./verb";

/** GET /api/v1/webhooks/{id}/deliveries: its last 50 attempts. */
export const listWebhookDeliveries = verb({ writes: false, needsMax: true, run: webhooks.listWebhookDeliveries });
