import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import {
  authenticateKeyHash,
  type KeyAuthentication,
  keyAccountSql,
  keyActorQuery,
  type KeyActorRow,
  keyVerdictRows,
  requireMax,
  toKeyAuthentication,
} from "../api-keys/service";
import type { Actor, ServiceContext } from "../context";

/**
 * Who a task verb acts for: an actor already resolved (MCP, sessions), or an API key whose
 * lookup has not run yet. For a key, the lookup (key, account, membership) rides in the verb's
 * own D1 batch, so authentication costs no round trip of its own.
 */
export type Caller = ServiceContext | KeyCaller;

export interface KeyCaller {
  db: Db;
  keyHash: string;
  /**
   * Told as soon as a verb's batch has found the key live (before the Max check), so a surface that
   * must answer 401 itself (MCP) learns the verdict from that batch instead of a lookup of its own.
   */
  onAuthenticated?(auth: KeyAuthentication): void;
}

/** A verb's result, plus the key's authentication when the caller was a key (for lastUsedAt). */
export interface Outcome<T> {
  value: T;
  auth?: KeyAuthentication;
}

type Statement = BatchItem<"sqlite">;

export interface Scope {
  db: Db;
  /**
   * The account as SQL-ready value: the actor's id, or a subquery that yields the key's account
   * only while the key is live and its Max membership active (NULL otherwise), so a statement
   * scoped by it can neither read nor write anything for a refused key.
   */
  account: string | SQL;
  /**
   * Runs the verb's statements in one batch, then raises 401/403 before the results are used.
   * With `verdictInFirstRow`, the first statement's one row carries the key lookup as its `verdict`
   * column (keyVerdictSql), so no lookup statement is added; an actor's scope ignores it.
   */
  run(statements: Statement[], options?: { verdictInFirstRow?: boolean }): Promise<{ actor: Actor; auth?: KeyAuthentication; results: unknown[] }>;
}

export function scopeOf(caller: Caller): Scope {
  const { db } = caller;
  if ("actor" in caller) {
    requireMax(caller.actor);
    return {
      db,
      account: caller.actor.accountId,
      run: async (statements) => ({ actor: caller.actor, results: statements.length ? await db.batch(statements as [Statement]) : [] }),
    };
  }
  return {
    db,
    account: keyAccountSql(caller.keyHash),
    run: async (statements, options) => {
      const inFirstRow = options?.verdictInFirstRow;
      const batch = await db.batch((inFirstRow ? statements : [keyActorQuery(db, caller.keyHash), ...statements]) as [Statement]);
      const [actorRows, results] = inFirstRow
        ? [keyVerdictRows((batch[0] as { verdict: string | null }[])[0]!.verdict), batch]
        : [batch[0] as KeyActorRow[], batch.slice(1)];
      const auth = toKeyAuthentication(db, actorRows);
      caller.onAuthenticated?.(auth);
      requireMax(auth.actor);
      return { actor: auth.actor, auth, results };
    },
  };
}

/**
 * One lookup of its own, then the usual context: for a request that must be judged before it is
 * refused for its input (credentials before input), where no verb's batch runs to carry the lookup.
 */
export async function resolveCaller(caller: Caller): Promise<{ ctx: ServiceContext; auth?: KeyAuthentication }> {
  if ("actor" in caller) {
    requireMax(caller.actor);
    return { ctx: caller };
  }
  const auth = await authenticateKeyHash(caller.db, caller.keyHash);
  caller.onAuthenticated?.(auth);
  requireMax(auth.actor);
  return { ctx: { db: caller.db, actor: auth.actor }, auth };
}
