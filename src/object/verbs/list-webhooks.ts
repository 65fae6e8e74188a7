import * as webhooks from "../webhooks/service";
import { verb } from "./verb";

/** GET /api/v1/webhooks, the account page: the webhooks, without secrets (the page: with recent failures). */
export const listWebhooks = verb({ writes: false, needsMax: true, run: webhooks.listWebhooks });
