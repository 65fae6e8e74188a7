import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { compiled, type Placeholders } from "../../db/compiled";
import {
  authenticateKeyHash,
  type KeyActorRow,
  type KeyAuthentication,
  keyAccountChangedSql,
  keyAccountSql,
  keyActorQuery,
  keyVerdictRows,
  keyVerdictSql,
  requireMax,
  toKeyAuthentication,
} from "../api-keys/service";

/**
 * The one way a task verb builds and runs its statements. Most task requests come with an API key
 * (REST and MCP alike) whose lookup (key, account, Max membership) has not run yet: it rides in the
 * verb's own D1 batch, so authentication costs no round trip of its own. Every statement is scoped by
 * the key's account as SQL, which is NULL for a refused key, so nothing is read or written for it
 * whatever the verb does with the answer. An OAuth connection on /mcp is judged before the verb
 * (mcp/handler.ts): its statements are scoped by the account it found.
 */

export type Statement = BatchItem<"sqlite">;

/** Who a task verb acts for: an API key not judged yet, or an account already judged. */
export type Caller = KeyCaller | AccountCaller;

/** An API key, by its SHA-256. */
export interface KeyCaller {
  db: Db;
  keyHash: string;
  /**
   * Told as soon as a verb's batch has found the key live (before the Max check), so a surface that
   * must answer 401 itself (MCP) learns the verdict from that batch instead of a lookup of its own.
   */
  onAuthenticated?(auth: KeyAuthentication): void;
}

/** An account whose credential was judged before the verb (an OAuth connection): its actor, and lastUsedAt to refresh. */
export interface AccountCaller {
  db: Db;
  auth: KeyAuthentication;
}

/** A verb's result, and the key's authentication (its actor, and lastUsedAt to refresh). */
export interface Outcome<T> {
  value: T;
  auth: KeyAuthentication;
}

/** What a statement is built from: SQL for the key's scope, and a placeholder per value it binds. */
export interface CallerScope<V> {
  db: Db;
  /** The key's account while the key is live and its Max membership active; NULL otherwise. */
  account: SQL;
  /** `account`, but NULL also while the account's tasks are still at `knownVersion` (listing-cache.ts). */
  accountChangedSince(knownVersion: unknown): SQL;
  /** The key's lookup as one column (keyVerdictSql), for a statement's rows to carry. */
  verdict: SQL.Aliased<string | null>;
  values: Placeholders<V>;
}

/** A query whose every row carries the key's verdict as its `verdict` column. */
type CarriesVerdict = PromiseLike<readonly { verdict: string | null }[]>;
declare const carriesVerdict: unique symbol;
/** A statement whose rows carry the verdict: only such a statement can lead a run below. */
export type VerdictStatement = Statement & { readonly [carriesVerdict]: true };

/**
 * Declares a statement. It is compiled once per isolate and shape (db/compiled.ts) and bound to each
 * request's values: booleans as SQLite integers, since placeholders skip Drizzle's encoders. `build`
 * sees only the shape and placeholders, so nothing of one request can end up in the cached SQL; the
 * shape is every choice `build` makes. A query whose rows select `scope.verdict` comes out as a
 * VerdictStatement: leaving the verdict out of a statement that must lead a run does not compile.
 */
export function taskStatement<S, V extends Record<string, unknown>, Q extends { prepare(): unknown }>(
  build: (scope: CallerScope<V>, shape: S) => Q,
): (caller: Caller, shape: S, values: V) => Q extends CarriesVerdict ? VerdictStatement : Statement {
  const byShape = new Map<string, ReturnType<typeof compiled<V & { credential: string }>>>();
  return (caller, shape, values) => {
    const byKey = "keyHash" in caller;
    const name = `${byKey ? "key" : "account"} ${JSON.stringify(shape) ?? ""}`;
    let statement = byShape.get(name);
    if (!statement) {
      statement = compiled<V & { credential: string }>((db, p) =>
        build(byKey ? keyScope(db, p, p.credential) : accountScope(db, p, p.credential), shape),
      );
      byShape.set(name, statement);
    }
    const bound: Record<string, unknown> = { credential: byKey ? caller.keyHash : caller.auth.actor.accountId };
    for (const [name, value] of Object.entries(values))
      bound[name] = typeof value === "boolean" ? Number(value) : value;
    return statement.with(caller.db, bound as V & { credential: string }) as never;
  };
}

/** A key's scope: its account and verdict as SQL over its hash. */
const keyScope = <V>(db: Db, values: Placeholders<V>, keyHash: Placeholder): CallerScope<V> => ({
  db,
  account: keyAccountSql(keyHash),
  accountChangedSince: (knownVersion) => keyAccountChangedSql(keyHash, knownVersion),
  verdict: keyVerdictSql(keyHash).as("verdict"),
  values,
});

/**
 * A judged account's scope: the account itself, and no verdict to carry (NULL). Held listings are for
 * API keys only (list.ts), so there is no version to compare: the account is always "changed".
 */
const accountScope = <V>(db: Db, values: Placeholders<V>, accountId: Placeholder): CallerScope<V> => ({
  db,
  account: sql`${accountId}`,
  accountChangedSince: () => sql`${accountId}`,
  verdict: sql<string | null>`NULL`.as("verdict"),
  values,
});

export interface Judged {
  auth: KeyAuthentication;
  results: unknown[];
}

/** The key's verdict, told to the caller and judged: 401 or 403, or the key's authentication. */
function judged(caller: KeyCaller, rows: KeyActorRow[]): KeyAuthentication {
  const auth = toKeyAuthentication(caller.db, rows);
  caller.onAuthenticated?.(auth);
  requireMax(auth.actor);
  return auth;
}

const verdictOf = (rows: unknown) => (rows as { verdict: string | null }[])[0]?.verdict ?? null;

/** An account judged before the verb: Max is checked here, and the statements run as they are. */
async function runForAccount(caller: AccountCaller, statements: Statement[]): Promise<Judged> {
  requireMax(caller.auth.actor);
  return { auth: caller.auth, results: await caller.db.batch(statements as [Statement, ...Statement[]]) };
}

/** Runs statements behind the key's lookup, a statement of its own at the head of the batch. */
export async function runBehindLookup(caller: Caller, statements: Statement[]): Promise<Judged> {
  if (!("keyHash" in caller)) return runForAccount(caller, statements);
  const [actorRows, ...results] = await caller.db.batch([keyActorQuery(caller.db, caller.keyHash), ...statements]);
  return { auth: judged(caller, actorRows as KeyActorRow[]), results };
}

/** Runs the batch, whose first statement always yields exactly one row (an aggregate) carrying the verdict. */
export async function runWithVerdictRow(
  caller: Caller,
  statements: [VerdictStatement, ...Statement[]],
): Promise<Judged> {
  if (!("keyHash" in caller)) return runForAccount(caller, statements);
  const results = await caller.db.batch(statements);
  return { auth: judged(caller, keyVerdictRows(verdictOf(results[0]))), results };
}

/**
 * The first statement (the read or write itself) runs alone; each of its rows carries the verdict, and
 * scoped by the key's account it yields none for a refused key. A row is the whole answer: a statement
 * that wrote is never run twice. No row means nothing was read or written, and the whole batch runs
 * again behind the lookup, which tells a refused key from a missing task or a stale version. Only a
 * request that finds nothing pays that second round trip.
 */
export async function runWithVerdictRows(
  caller: Caller,
  statements: [VerdictStatement, ...Statement[]],
): Promise<Judged> {
  if (!("keyHash" in caller)) return runForAccount(caller, statements);
  const [rows] = await caller.db.batch([statements[0]]);
  if ((rows as unknown[]).length) return { auth: judged(caller, keyVerdictRows(verdictOf(rows))), results: [rows] };
  return runBehindLookup(caller, statements);
}

/**
 * The key's own lookup, for a request that must be judged before it is refused for its input
 * (credentials before input), where no verb's batch runs to carry the lookup.
 */
export async function judge(caller: Caller): Promise<KeyAuthentication> {
  if (!("keyHash" in caller)) {
    requireMax(caller.auth.actor);
    return caller.auth;
  }
  const auth = await authenticateKeyHash(caller.db, caller.keyHash);
  caller.onAuthenticated?.(auth);
  requireMax(auth.actor);
  return auth;
}

/**
 * Further statements of a verb whose first batch already judged the key (completion's second round
 * trip). They are still scoped by the key's account, so a key revoked in between changes nothing.
 */
export const runJudged = (caller: Caller, statements: Statement[]) =>
  caller.db.batch(statements as [Statement, ...Statement[]]);
