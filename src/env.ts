import type { Db } from "./db/client";
import type { Actor } from "./domain/context";

/** Bindings come from `wrangler types` (worker-configuration.d.ts); only request variables are declared here. */
export interface AppVariables {
  db: Db;
  actor: Actor;
  sessionId: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
