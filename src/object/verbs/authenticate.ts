import { verb } from "./verb";

/**
 * Nothing but the judgement (the credential, and Max): a request refused for its input must hear
 * 401/403 first (REST's validation hook, the page's memberBeforeRejecting).
 */
export const authenticate = verb({ writes: false, needsMax: true, run: () => null });
