import type { AccountCaller } from "../control/caller";
import type { Db } from "../control/db";

/** Bindings come from `wrangler types` (worker-configuration.d.ts); only request variables are declared here. */
export interface AppVariables {
  db: Db;
  /**
   * Who the request acts for: the account its API key or session names, and that credential, judged by the
   * account's object. Set by `requireApiKey` and `requireSession`; a session route's signed-in account.
   */
  caller: AccountCaller;
  sessionId: string;
  /** When that session ends unless it is used again (RFC 3339 UTC). */
  sessionExpiresAt: string;
  /** How `requireSession` found the session: a bearer header (scripts) or the pages' cookie (CSRF-checked). */
  sessionVia: "bearer" | "cookie";
  /** Set before the guards for a route whose OpenAPI body is `required: false`: an empty body reads as `{}`. */
  bodyOptional: boolean;
  /** Set before the guards for a route that declares a body other than JSON (an upload): it reads its body itself. */
  bodyUpload: boolean;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}

declare global {
  /**
   * Optional secrets (docs/billing.md), declared by hand because `wrangler types` types only the
   * `[secrets] required` list, and requiring them would stop every deployment without billing.
   */
  interface Env {
    STRIPE_SECRET_KEY?: string;
    STRIPE_WEBHOOK_SECRET?: string;
  }
}
