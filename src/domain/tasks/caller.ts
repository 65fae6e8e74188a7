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
   * With `verdictIn`, the first row of that statement carries the key lookup (a `verdict` column, see
   * keyVerdictSql) and no lookup statement is added; an actor's scope ignores it. Only a statement that
   * yields no row exactly when it changed nothing (a refused key's scoped insert) may set `orNoRow`:
   * without a row, the statements run again behind a lookup, which gives the verdict.
   */
  run(
    statements: Statement[],
    options?: { verdictIn: number; orNoRow?: true },
  ): Promise<{ actor: Actor; auth?: KeyAuthentication; results: unknown[] }>;
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
      let actorRows: KeyActorRow[] | undefined;
      let results: unknown[] = [];
      if (options) {
        results = await db.batch(statements as [Statement]);
        const [row] = results[options.verdictIn] as { verdict?: string | null }[];
        if (row) {
          if (row.verdict === undefined) throw new Error("The statement named by verdictIn has no verdict column.");
          actorRows = keyVerdictRows(row.verdict);
        } else if (!options.orNoRow) {
          throw new Error("The statement named by verdictIn yielded no row.");
        }
      }
      if (!actorRows) {
        const batch = await db.batch([keyActorQuery(db, caller.keyHash), ...statements]);
        actorRows = batch[0] as KeyActorRow[];
        results = batch.slice(1);
      }
      const auth = toKeyAuthentication(db, actorRows);
      caller.onAuthenticated?.(auth);
      requireMax(auth.actor);
      return { actor: auth.actor, auth, results };
    },
  };
}

/**
 * For the few paths that must know the actor before they can build their statements
 * (completion with recurrence, idempotent creation): one lookup first, then the usual context.
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
