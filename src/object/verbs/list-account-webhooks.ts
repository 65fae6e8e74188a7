import { pageWebhooks } from "../webhooks/overview";
import { verb } from "./verb";

/**
 * GET /account/webhooks, the account page: the webhooks, without secrets, each with its recent attempts
 * and the deliveries still to come (webhooks/overview.ts).
 */
export const listAccountWebhooks = verb({ writes: false, needsMax: true, run: pageWebhooks });
