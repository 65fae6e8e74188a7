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
  keyVerdictSql,
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
   * For a key, its lookup as one SQL value (keyVerdictSql), for a statement to carry as its `verdict`
   * column (see `verdictIn`); undefined for an actor, whose statements need none.
   */
  verdict: SQL | undefined;
  /**
   * Runs the verb's statements in one batch, then raises 401/403 before the results are used.
   * For a key, the lookup is a statement of its own at the head of the batch, unless `verdictIn`
   * says the first statement carries it as its `verdict` column (an actor's scope ignores it):
   * - "row": the first statement always yields exactly one row (an aggregate, as the listing).
   * - "rows": each row of the first statement carries it, and it yields none when it read or wrote
   *   nothing (being scoped by `account`, it does so for a refused key too). The first statement is
   *   sent alone, the write or read itself: its row is the whole answer. Without one, nothing was
   *   written, and the whole batch runs again behind the lookup statement, which tells a refused key
   *   from a missing task or a stale version. Only a request that changes and finds nothing pays
   *   that second round trip.
   */
  run(
    statements: Statement[],
    options?: { verdictIn?: "row" | "rows" },
  ): Promise<{ actor: Actor; auth?: KeyAuthentication; results: unknown[] }>;
}

/** The key's verdict, told to the caller and judged: 401 or 403, or the actor. */
function judged(caller: KeyCaller, rows: KeyActorRow[]) {
  const auth = toKeyAuthentication(caller.db, rows);
  caller.onAuthenticated?.(auth);
  requireMax(auth.actor);
  return auth;
}

export function scopeOf(caller: Caller): Scope {
  const { db } = caller;
  if ("actor" in caller) {
    requireMax(caller.actor);
    return {
      db,
      account: caller.actor.accountId,
      verdict: undefined,
      run: async (statements) => ({
        actor: caller.actor,
        results: statements.length ? await db.batch(statements as [Statement]) : [],
      }),
    };
  }
  return {
    db,
    account: keyAccountSql(caller.keyHash),
    verdict: keyVerdictSql(caller.keyHash),
    run: async (statements, options) => {
      const verdictOf = (rows: unknown) => (rows as { verdict: string | null }[])[0]?.verdict;
      if (options?.verdictIn === "row") {
        const batch = await db.batch(statements as [Statement]);
        const auth = judged(caller, keyVerdictRows(verdictOf(batch[0]) ?? null));
        return { actor: auth.actor, auth, results: batch };
      }
      if (options?.verdictIn === "rows") {
        const [rows] = await db.batch([statements[0]] as [Statement]);
        // A row means the statement ran for this key: never run it twice.
        if ((rows as unknown[]).length) {
          const auth = judged(caller, keyVerdictRows(verdictOf(rows) ?? null));
          return { actor: auth.actor, auth, results: [rows] };
        }
      }
      const [actorRows, ...results] = await db.batch([keyActorQuery(db, caller.keyHash), ...statements]);
      const auth = judged(caller, actorRows as KeyActorRow[]);
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
