import { DurableObject } from "cloudflare:workers";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { nowSql } from "../db/clock";
import type { AccountDb } from "../domain/context";
import { purgeAccount } from "../domain/retention";
import { feedTasks, isFeedToken } from "../domain/feeds/service";
import { forgetListing } from "../domain/tasks/listing-memo";
import { fireReminders, scheduleAllReminders, scheduleReminders } from "../domain/tasks/reminders";
import { allowsLoopback } from "../domain/webhooks/address";
import { enqueue } from "../domain/webhooks/outbox";
import { AppError } from "../domain/errors";
import { accountRow, authorize, MAX_REQUIRED, type Credential } from "./credentials";
import { deliverDue } from "./delivery";
import { runRaising } from "./events";
import { exportLists, exportTaskPage } from "./export";
import migrations from "./migrations/migrations";
import { failure, type Result } from "./result";
import * as schema from "./schema";
import { nextAlarmAt, postponeRetention } from "./scheduler";
import { dropLegacyRows, readLegacyAccount, writeLegacyAccount } from "./upgrade";
import { needsMax, prepare, type VerbArgs, type VerbName, type VerbValue, verbs } from "./verbs";

const { account, apiKeys, connections } = schema;

/** One task request: who it is for, what it shows, and the verb it runs (verbs.ts). */
export interface VerbRequest<V extends VerbName = VerbName> {
  accountId: string;
  credential: Credential;
  verb: V;
  args: VerbArgs<V>;
}

/** A change the control plane (D1) makes to what task requests judge; applied on the next request. */
export type AccountChange =
  | { kind: "open" }
  | { kind: "membership"; plan: "free" | "max"; expiresAt: string | null }
  | { kind: "timeZone"; timeZone: string }
  | { kind: "keyCreated"; id: string; keyHash: string; expiresAt: string | null }
  | { kind: "keyRevoked"; id: string }
  | { kind: "connectionCreated"; id: string; replaces: string[] }
  | { kind: "connectionsRevoked"; ids: string[] }
  | { kind: "connectionGeneration"; id: string; generation: number };

/**
 * One account's data and the authority over its task requests: a SQLite-backed Durable Object, one per
 * account, reached by `idFromName(accountId)` (client.ts). It holds the account's tasks, lists, search
 * index and idempotency records, and what a task request judges (its keys, its Max membership, its
 * OAuth connections). A task request is one call to `run`: the credential is judged and the verb runs
 * inside one transaction.
 */
export class AccountObject extends DurableObject<Env> {
  private readonly db: AccountDb;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    void ctx.blockConcurrencyWhile(() => migrate(this.db, migrations));
  }

  /**
   * The one call of a task request (REST, MCP or the page). The events the verb raises are queued and
   * its tasks' reminders moved in the same transaction (events.ts): committed with the change, or
   * rolled back with it. The alarm then delivers them (scheduler.ts).
   */
  async run<V extends VerbName>(request: VerbRequest<V>): Promise<Result<VerbValue<V>>> {
    try {
      await this.open(request.accountId);
      const args = await prepare(request.verb, request.args);
      const { value, moved } = this.ctx.storage.transactionSync(() => {
        const actor = authorize(this.db, request.credential, needsMax(request.verb));
        const verb = verbs[request.verb] as (ctx: object, args: VerbArgs<V>) => VerbValue<V>;
        const { value, raised } = runRaising(this.db, request.verb, args, () => verb({ db: this.db, ...actor }, args));
        const now = Date.now();
        const queued = enqueue(this.db, raised.events, now).length;
        scheduleReminders(this.db, raised.tasks, now);
        return { value, moved: queued > 0 || raised.tasks.length > 0 || request.verb === "testWebhook" };
      });
      if (moved) await this.schedule();
      return { ok: true, value };
    } catch (e) {
      return failure(e);
    }
  }

  /**
   * The calendar feed (http/feeds.ts): the open tasks with a `due`, for the feed's current token.
   * 404 for any other token (rotated, disabled, never made), 403 without Max. A feed's account is
   * always open already (the page made its token), so an unknown account is not looked for in D1.
   */
  async feed(tokenHash: string): Promise<Result<{ tasks: ReturnType<typeof feedTasks>; timeZone: string }>> {
    try {
      const row = accountRow(this.db);
      if (!row || row.erasedAt || !isFeedToken(this.db, tokenHash)) {
        throw new AppError(
          "not_found",
          "No calendar feed at this address. Copy the current one from the account page.",
        );
      }
      if (!row.maxActive) throw new AppError("max_required", MAX_REQUIRED);
      return { ok: true, value: { tasks: feedTasks(this.db), timeZone: row.timeZone } };
    } catch (e) {
      return failure(e);
    }
  }

  /** A change from the control plane: a key, a membership, a time zone or a connection. */
  async change(accountId: string, change: AccountChange): Promise<Result<null>> {
    try {
      await this.open(accountId);
      this.ctx.storage.transactionSync(() => this.apply(change));
      return { ok: true, value: null };
    } catch (e) {
      return failure(e);
    }
  }

  private apply(change: AccountChange): void {
    const { db } = this;
    switch (change.kind) {
      case "open":
        return;
      case "membership":
        db.update(account).set({ plan: change.plan, planExpiresAt: change.expiresAt }).run();
        return;
      case "timeZone":
        db.update(account).set({ timeZone: change.timeZone }).run();
        return;
      case "keyCreated":
        db.insert(apiKeys)
          .values({ id: change.id, keyHash: change.keyHash, expiresAt: change.expiresAt })
          .onConflictDoNothing()
          .run();
        return;
      case "keyRevoked":
        db.update(apiKeys)
          .set({ revokedAt: nowSql })
          .where(and(eq(apiKeys.id, change.id), isNull(apiKeys.revokedAt)))
          .run();
        return;
      case "connectionCreated":
        db.insert(connections).values({ id: change.id }).onConflictDoNothing().run();
        this.revokeConnections(change.replaces);
        return;
      case "connectionsRevoked":
        this.revokeConnections(change.ids);
        return;
      case "connectionGeneration":
        db.update(connections)
          .set({ liveGeneration: sql`max(${connections.liveGeneration}, ${change.generation})` })
          .where(eq(connections.id, change.id))
          .run();
        return;
    }
  }

  private revokeConnections(ids: string[]) {
    if (ids.length === 0) return;
    this.db
      .update(connections)
      .set({ revokedAt: nowSql })
      .where(and(inArray(connections.id, ids), isNull(connections.revokedAt)))
      .run();
  }

  /** The bench's object floor (GET /_bench/object, src/http/bench.ts): a call that does nothing, the hop alone. */
  ping(): number {
    return 1;
  }

  /** When each key and connection was last used: the account page shows it beside D1's list. */
  async usage(accountId: string) {
    await this.open(accountId);
    return {
      keys: this.db.select({ id: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).all(),
      connections: this.db.select({ id: connections.id, lastUsedAt: connections.lastUsedAt }).from(connections).all(),
    };
  }

  /** One page of the account's live tasks for the export (account/export.ts), after `afterId`. */
  async exportTasks(accountId: string, afterId: string) {
    await this.open(accountId);
    return exportTaskPage(this.db, afterId);
  }

  /** The account's live lists, for the export. */
  async exportLists(accountId: string) {
    await this.open(accountId);
    return exportLists(this.db);
  }

  /**
   * Erasure: every row of the account's object and its alarm, before D1's rows go (account-data.ts).
   * What stays is a marker with the account's id alone, so that no request, in the moment before D1's
   * rows are gone, copies the account back from D1 (upgrade.ts); its credentials are refused (401).
   */
  async erase(accountId: string): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    forgetListing(this.db);
    await migrate(this.db, migrations);
    this.db.insert(account).values({ id: accountId, erasedAt: nowSql }).run();
  }

  /**
   * The object's one alarm runs its jobs (scheduler.ts): the retention (tombstones, idempotency records,
   * a pending D1 clean-up), reminders that are due, and webhook deliveries that are due. Then it is set
   * again to the earliest next due time (at the latest, a day from now).
   */
  override async alarm(): Promise<void> {
    const row = accountRow(this.db);
    if (!row || row.erasedAt) return;
    const now = Date.now();
    // Retention runs on every alarm (three indexed deletes: microseconds); its job only makes sure
    // the alarm comes at least once a day.
    this.ctx.storage.transactionSync(() => {
      purgeAccount(this.db);
      postponeRetention(this.db, now);
    });
    const { legacyRowsPending } = this.db.select({ legacyRowsPending: account.legacyRowsPending }).from(account).get()!;
    if (legacyRowsPending) await this.dropLegacyRows(row.id);
    this.ctx.storage.transactionSync(() => {
      const fired = fireReminders(this.db, now);
      // Events are a Max feature: a lapsed account's reminders pass without one.
      if (row.maxActive) enqueue(this.db, fired, now);
    });
    await deliverDue(this.ctx.storage, this.db, allowsLoopback(this.env), now);
    await this.schedule();
  }

  /** Sets the alarm to the earliest due job (scheduler.ts), unless it is set there already. */
  private async schedule(): Promise<void> {
    const at = nextAlarmAt(this.db, Date.now());
    if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * Makes sure the account's row is here. The first call of an account that has none copies its rows
   * from D1 (upgrade.ts); no other call of this object starts until that is done. An account D1 does
   * not know stays empty, and `authorize` refuses its requests (401).
   */
  private async open(accountId: string): Promise<void> {
    if (this.db.select({ id: account.id }).from(account).get()) return;
    let failed: unknown;
    await this.ctx.blockConcurrencyWhile(async () => {
      try {
        if (this.db.select({ id: account.id }).from(account).get()) return;
        const legacy = await readLegacyAccount(this.env.DB, accountId);
        if (!legacy) return;
        const now = Date.now();
        this.ctx.storage.transactionSync(() => {
          writeLegacyAccount(this.db, legacy);
          postponeRetention(this.db, now);
          scheduleAllReminders(this.db, now);
        });
        await this.schedule();
        if (legacy.account.legacyRowsPending) await this.dropLegacyRows(accountId);
      } catch (e) {
        failed = e;
      }
    });
    if (failed) throw failed;
  }

  private async dropLegacyRows(accountId: string): Promise<void> {
    try {
      await dropLegacyRows(this.env.DB, accountId);
      this.db.update(account).set({ legacyRowsPending: false }).run();
    } catch (e) {
      // The rows are copied; deleting them again is retried by the daily alarm.
      console.error("account object: legacy rows not deleted yet", String(e).slice(0, 200));
    }
  }
}
