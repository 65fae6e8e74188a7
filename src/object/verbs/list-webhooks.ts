import * as webhooks from "../webhooks/service";
import { verb } from "./verb";

/** GET /api/v1/webhooks: the webhooks, without secrets. */
export const listWebhooks = verb({ writes: false, needsMax: true, run: (ctx) => webhooks.listWebhooks(ctx) });
