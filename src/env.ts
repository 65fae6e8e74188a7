import type { Db } from "./db/client";
import type { Actor } from "./domain/context";

/** Bindings come from `wrangler types` (worker-configuration.d.ts); only request variables are declared here. */
export interface AppVariables {
  db: Db;
  actor: Actor;
  /** A well-formed API key's SHA-256 whose lookup is deferred into the route's own D1 batch. */
  keyHash: string;
  sessionId: string;
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
