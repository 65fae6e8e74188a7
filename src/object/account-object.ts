import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { nowSql } from "../domain/clock";
import type { AccountDb } from "./context";
import { purgeAccount } from "./retention";
import { feedTasks, isFeedToken } from "./feeds";
import { forgetListing } from "./tasks/listing-memo";
import { scheduleAllReminders, scheduleReminders } from "./tasks/reminders";
import { fireDueReminders, sendDueNotices } from "./fire-reminders";
import { allowsLoopback } from "../domain/webhooks/address";
import { enqueue } from "./webhooks/outbox";
import { AppError } from "../domain/errors";
import { type AccountChange, applyChange } from "./changes";
import { accountRow, authorize, MAX_REQUIRED, type TaskCredential } from "./credentials";
import { deliverDue } from "./delivery";
import { listPushSubscriptions } from "./push/subscriptions";
import { readMailSettings } from "./mail/settings";
import { exportLabels, exportLists, exportTaskPage } from "./export";
import { listWebhooks } from "./webhooks/service";
import { hasTables, migrateInOrder } from "./migrate";
import migrations from "./migrations/migrations";
import { type MovedAccount, writeMovedAccount } from "./move-in";
import { ACCOUNT_MISSING, failure, type Result } from "./result";
import * as schema from "./schema";
import { nextAlarmAt, setAlarmFor } from "./scheduler";
import { type VerbArgs, type VerbName, type VerbValue, verbOf } from "./verbs";
import { runRaising } from "./verbs/events";
import { acceptStream, afterChange, broadcast, closeErased, onMessage } from "./stream";

const { account, apiKeys, connections } = schema;

/** One task request: who it is for, what it shows, and the verb it runs (verbs/). */
export interface VerbRequest<V extends VerbName = VerbName> {
  credential: TaskCredential;
  verb: V;
  args: VerbArgs<V>;
}

/** What sign-up knows of a new account: its object's account row (`init`). */
export interface NewAccount {
  id: string;
  plan: "free" | "max";
  timeZone: string;
}

/**
 * One account's data and the authority over its task requests: a SQLite-backed Durable Object, one per
 * account, reached by `idFromName(accountId)` (control/account-client.ts). It holds the account's tasks, lists, search
 * index and idempotency records, and what a task request judges (its keys, its Max membership, its
 * OAuth connections). A task request is one call to `run`: the credential is judged and the verb runs
 * inside one transaction.
 */
export class AccountObject extends DurableObject<Env> {
  private readonly db: AccountDb;
  /** Whether this object's SQLite has its tables: set up by `init` or `moveIn`, never by any other call. */
  private migrated: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    // An object a call reaches for an account it does not know must persist nothing (issue 35): its schema
    // alone is 180 KiB. So a new object stays empty, and answers ACCOUNT_MISSING, until sign-up (`init`) or the
    // move from D1 (`moveIn`) gives it its account; an object that has tables runs the migrations it lacks.
    this.migrated = hasTables(ctx.storage);
    // The stream's heartbeat is answered by the runtime: a hibernated object is never woken by it.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
    // The only wait no call may pass: the object's own SQLite, never a network call (Rules of Durable Objects).
    if (this.migrated) void ctx.blockConcurrencyWhile(async () => migrateInOrder(ctx.storage, migrations));
  }

  /** The tables, for the two calls that give an object its account. */
  private migrate(): void {
    if (this.migrated) return;
    migrateInOrder(this.ctx.storage, migrations);
    this.migrated = true;
  }

  /**
   * Sign-up (control/accounts/service.ts): the new account's row, from what the sign-up chose, before D1
   * has the account. Nothing is read from D1, and nothing waits: a new account has no work for the alarm.
   * A second `init` of the same account changes nothing.
   */
  async init(row: NewAccount): Promise<Result<null>> {
    try {
      this.migrate();
      this.db.insert(account).values(row).onConflictDoNothing().run();
      return { ok: true, value: null };
    } catch (e) {
      return failure(e);
    }
  }

  /**
   * The one call of a task request (REST, MCP or the page): the verb's declaration (verbs/<verb>.ts)
   * says what it precomputes, whether it needs Max, and what it raises. The events are queued and its
   * tasks' reminders moved in the same transaction: committed with the change, or rolled back with it.
   * The alarm then delivers them (scheduler.ts). An object without its account answers ACCOUNT_MISSING
   * (the Worker then looks whether the account waits for the move from D1).
   */
  async run<V extends VerbName>(request: VerbRequest<V>): Promise<Result<VerbValue<V>>> {
    try {
      if (this.accountMissing()) return ACCOUNT_MISSING;
      const verb = verbOf(request.verb);
      const args = verb.prepare ? await verb.prepare(request.args) : request.args;
      const { value, events } = this.ctx.storage.transactionSync(() => {
        const actor = authorize(this.db, request.credential, verb.needsMax);
        const { value, raised } = runRaising({ db: this.db, ...actor }, verb, args);
        const now = Date.now();
        enqueue(this.db, raised.events, now);
        scheduleReminders(this.db, raised.tasks, now);
        return { value, events: raised.events };
      });
      // Committed: only now do the open sockets hear of it (stream.ts); a throw above sent nothing.
      broadcast(this.ctx, this.db, events);
      // A write may have added work at a known time: an event, a reminder, a tombstone, a replay record.
      // A read adds none (verbs.test.ts holds every read to changing no row), so it leaves the alarm be.
      if (verb.writes) await this.schedule();
      return { ok: true, value };
    } catch (e) {
      // A rolled-back transaction leaves SQLite's change count where its writes moved it: a listing read
      // after those writes, inside it, must not be served again (listing-memo.ts).
      forgetListing(this.db);
      return failure(e);
    }
  }

  /**
   * The calendar feed (http/feeds.ts): the open tasks with a `due`, for the feed's current token.
   * 404 for any other token (rotated, disabled, never made), 403 without Max. A feed's account is
   * always in its object already (the page made its token there), so none is moved from D1 here.
   */
  async feed(tokenHash: string): Promise<Result<{ tasks: ReturnType<typeof feedTasks>; timeZone: string }>> {
    try {
      const row = this.migrated ? accountRow(this.db) : undefined;
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
  async change(change: AccountChange): Promise<Result<null>> {
    try {
      if (this.accountMissing()) return ACCOUNT_MISSING;
      this.ctx.storage.transactionSync(() => applyChange(this.db, change));
      afterChange(this.ctx, this.db, change);
      await this.schedule(); // a digest's time may have moved
      return { ok: true, value: null };
    } catch (e) {
      return failure(e);
    }
  }

  /** The stream's upgrade, forwarded by the Worker (http/v1/stream.ts): a hibernatable socket (stream.ts). */
  override async fetch(request: Request): Promise<Response> {
    if (this.accountMissing()) return Response.json(ACCOUNT_MISSING, { status: 401 });
    return acceptStream(this.ctx, this.db, request);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    onMessage(this.db, ws, message);
  }

  /** The bench's object floor (GET /_bench/object, src/http/bench.ts): a call that does nothing, the hop alone. */
  ping(): number {
    return 1;
  }

  /** Reminders by email: the account's choice (GET /account/notifications); null before any was made. */
  async mailSettings() {
    if (this.accountMissing()) return ACCOUNT_MISSING;
    return { ok: true as const, value: readMailSettings(this.db) ?? null };
  }

  /** When each key and connection was last used: the account page shows it beside D1's list. */
  async usage() {
    if (this.accountMissing()) return ACCOUNT_MISSING;
    return {
      ok: true as const,
      value: {
        keys: this.db.select({ id: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).all(),
        connections: this.db.select({ id: connections.id, lastUsedAt: connections.lastUsedAt }).from(connections).all(),
      },
    };
  }

  /** One page of the account's live tasks for the export (export.ts), after `afterId`. */
  async exportTasks(afterId: string) {
    if (this.accountMissing()) return ACCOUNT_MISSING;
    return { ok: true as const, value: exportTaskPage(this.db, afterId) };
  }

  /** The account's live lists, labels, webhooks (never their secrets) and notified devices, for the export's head. */
  async exportHead() {
    if (this.accountMissing()) return ACCOUNT_MISSING;
    const value = {
      lists: exportLists(this.db),
      labels: exportLabels(this.db),
      webhooks: listWebhooks({ db: this.db }),
      pushSubscriptions: listPushSubscriptions({ db: this.db }),
    };
    return { ok: true as const, value };
  }

  /**
   * The move from D1 (move-from-d1.ts): the rows D1 held for this account, handed over by the Worker and
   * written in one transaction if the object has no account yet. True if written; false if the account
   * was here already (moved a moment before, or made by sign-up), which keeps its rows.
   */
  async moveIn(moved: MovedAccount): Promise<Result<boolean>> {
    try {
      this.migrate();
      const written = this.ctx.storage.transactionSync(() => {
        if (!this.accountMissing()) return false;
        writeMovedAccount(this.db, moved);
        scheduleAllReminders(this.db, Date.now());
        return true;
      });
      if (written) await this.schedule();
      return { ok: true, value: written };
    } catch (e) {
      return failure(e);
    }
  }

  /**
   * Erasure: every row of the account's object and its alarm, before D1's rows go (account-data.ts).
   * What stays is a marker with the account's id alone, so that the object never looks empty again and
   * no request, in the moment before D1's rows are gone, moves the account back from D1
   * (move-from-d1.ts); its credentials are refused (401), and its open sockets closed (4401).
   */
  async erase(accountId: string): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    forgetListing(this.db);
    migrateInOrder(this.ctx.storage, migrations);
    this.migrated = true;
    this.db.insert(account).values({ id: accountId, erasedAt: nowSql }).run();
    closeErased(this.ctx);
  }

  /**
   * The object's one alarm runs its jobs (scheduler.ts): the retention (tombstones, idempotency records),
   * reminders that are due, their mail and browser notifications, and webhook deliveries that are due. Then it is set again to the earliest
   * next due time, or not at all when nothing is left to do. `now` is the runtime's clock; only tests
   * pass another (test/events/support.ts `runAlarmAt`), to run it at a due time without sleeping.
   */
  override async alarm(_info?: AlarmInvocationInfo, now = Date.now()): Promise<void> {
    const row = this.migrated ? accountRow(this.db) : undefined;
    if (!row || row.erasedAt) return;
    // Retention runs on every alarm (three indexed deletes: microseconds), whichever job set it.
    this.ctx.storage.transactionSync(() => purgeAccount(this.db));
    const fired = fireDueReminders(this.ctx.storage, this.db, this.env, { maxActive: Boolean(row.maxActive), now });
    broadcast(this.ctx, this.db, fired);
    await sendDueNotices(this.ctx.storage, this.db, this.env, now);
    // Not awaited: each attempt records itself and sets the alarm when it ends (delivery.ts), so a hung
    // receiver keeps no other webhook waiting. waitUntil keeps the object up while they are out.
    for (const sending of deliverDue(this.ctx.storage, this.db, allowsLoopback(this.env), now, () => this.schedule())) {
      this.sending.add(sending);
      const done = () => void this.sending.delete(sending);
      sending.then(done, done);
      this.ctx.waitUntil(sending);
    }
    // The alarm that woke the object is spent (the runtime clears it after this handler): set again only
    // if work is left, even at the very time it had (a batch of reminders due together).
    const next = nextAlarmAt(this.db);
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** Delivery attempts still out. */
  private readonly sending = new Set<Promise<void>>();

  /** Resolves when no delivery attempt is out: for tests, which read the outcome after the alarm. */
  async deliveriesSettled(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
  }

  /** The alarm at the earliest due job, or none (scheduler.ts `setAlarmFor`). */
  private schedule = () => setAlarmFor(this.ctx.storage, this.db);

  /** Whether the object has no account row yet: never set up by sign-up, nor moved from D1. Reads only. */
  private accountMissing(): boolean {
    return !this.migrated || !this.db.select({ id: account.id }).from(account).get();
  }
}
